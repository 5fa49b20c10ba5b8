import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authedCtxOf } from '../auth/guard.js';
import { IdempotencyHeader, idempotencyOf, sendIdempotent } from '../idempotency/idempotency.js';
import { PageOnlyQuery } from '../lib/pagination.js';
import { IdParam, Ok, Page, errorResponses } from '../lib/schemas.js';
import { BulkResult } from '../lib/bulk.js';
import {
  BulkAdjust,
  InventoryAdjust,
  InventoryCreate,
  InventoryListQuery,
  InventoryRecord,
  Movement,
  ReservationChange,
} from './schemas.js';
import type { InventoryService } from './service.js';

export const inventoryRoutes =
  (deps: { inventory: InventoryService }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { inventory } = deps;
    const tags = ['Admin: inventory'];
    const config = { access: 'admin' as const };
    const params = IdParam('variant_public_id', 'var');

    app.get('/admin/inventory', {
      config,
      schema: {
        tags,
        summary: 'List inventory records',
        querystring: InventoryListQuery,
        response: { 200: Page(InventoryRecord), ...errorResponses() },
      },
      handler: async (request) => ({ success: true as const, ...(await inventory.list(request.query)) }),
    });

    app.get('/admin/inventory/:variant_public_id', {
      config,
      schema: {
        tags,
        summary: 'Inventory record of a variant',
        params,
        response: { 200: Ok(InventoryRecord), ...errorResponses('NOT_FOUND') },
      },
      handler: async (request) => ({ success: true as const, data: await inventory.get(request.params.variant_public_id) }),
    });

    app.post('/admin/inventory', {
      config,
      schema: {
        tags,
        summary: 'Create the inventory record of a variant',
        headers: IdempotencyHeader,
        body: InventoryCreate,
        response: { 201: Ok(InventoryRecord), ...errorResponses('NOT_FOUND', 'INVENTORY_EXISTS', 'IDEMPOTENCY_KEY_REUSED') },
      },
      handler: async (request, reply) =>
        sendIdempotent(reply, await inventory.create(authedCtxOf(request), request.body, idempotencyOf(request))),
    });

    app.patch('/admin/inventory/:variant_public_id', {
      config,
      schema: {
        tags,
        summary: 'Adjust on-hand stock and/or the reorder level',
        params,
        headers: IdempotencyHeader,
        body: InventoryAdjust,
        response: { 200: Ok(InventoryRecord), ...errorResponses('NOT_FOUND', 'STOCK_RULE_VIOLATION', 'IDEMPOTENCY_KEY_REUSED') },
      },
      handler: async (request, reply) =>
        sendIdempotent(
          reply,
          await inventory.adjust(authedCtxOf(request), request.params.variant_public_id, request.body, idempotencyOf(request)),
        ),
    });

    app.post('/admin/inventory/bulk-adjust', {
      config,
      schema: {
        tags,
        summary: 'Adjust the stock of many variants with one reason, each as a PATCH with quantity_change would (and audited so)',
        body: BulkAdjust,
        response: { 200: Ok(BulkResult), ...errorResponses() },
      },
      handler: async (request) => ({ success: true as const, data: await inventory.bulkAdjust(authedCtxOf(request), request.body) }),
    });

    app.patch('/admin/inventory/:variant_public_id/reservation', {
      config,
      schema: {
        tags,
        summary: 'Reserve (change > 0) or release (change < 0) stock manually',
        params,
        headers: IdempotencyHeader,
        body: ReservationChange,
        response: {
          200: Ok(InventoryRecord),
          ...errorResponses('NOT_FOUND', 'STOCK_RULE_VIOLATION', 'RESERVATION_HELD', 'IDEMPOTENCY_KEY_REUSED'),
        },
      },
      handler: async (request, reply) =>
        sendIdempotent(
          reply,
          await inventory.changeReservation(authedCtxOf(request), request.params.variant_public_id, request.body, idempotencyOf(request)),
        ),
    });

    app.get('/admin/inventory/:variant_public_id/movements', {
      config,
      schema: {
        tags,
        summary: 'Stock movements of a variant, newest first',
        params,
        querystring: PageOnlyQuery,
        response: { 200: Page(Movement), ...errorResponses('NOT_FOUND') },
      },
      handler: async (request) => ({
        success: true as const,
        ...(await inventory.movements(request.params.variant_public_id, request.query)),
      }),
    });
  };
