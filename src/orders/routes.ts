import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authedCtxOf } from '../auth/guard.js';
import { IdempotencyHeader, idempotencyOf, sendIdempotent } from '../idempotency/idempotency.js';
import { IdParam, Ok, Page, errorResponses } from '../lib/schemas.js';
import type { Checkout } from './checkout.js';
import {
  AdminOrder,
  AdminOrderDetail,
  AdminOrderListQuery,
  Order,
  OrderExportQuery,
  OrderListQuery,
  OrderQuote,
  OrderStatusChange,
  PlaceOrder,
  QuoteQuery,
} from './schemas.js';
import type { Quote } from './quote.js';
import type { OrderService } from './service.js';
import { ORDER_CSV_COLUMNS } from './export-repository.js';
import { sendCsvStream } from '../lib/csv.js';
import { Type } from 'typebox';

export const orderRoutes =
  (deps: { checkout: Checkout; orders: OrderService; quote: Quote }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { checkout, orders, quote } = deps;
    const params = IdParam('order_public_id', 'ord');

    app.get('/cart/quote', {
      schema: {
        tags: ['Cart'],
        summary: 'What an order from your cart would cost now, with a coupon',
        description:
          'The totals POST /orders would compute now (subtotal, discount, shipping, tax, total) from the live prices, with the coupon ' +
          'when one is given, refused as checkout would refuse it (400 INVALID_COUPON, 409 COUPON_EXHAUSTED). Nothing is reserved or written: ' +
          'placing the order checks everything again. A quote with a coupon code counts against the checkout rate limit (429 RATE_LIMITED).',
        querystring: QuoteQuery,
        response: { 200: Ok(OrderQuote), ...errorResponses('INVALID_COUPON', 'COUPON_EXHAUSTED', 'RATE_LIMITED') },
      },
      handler: async (request) => ({ success: true as const, data: await quote(authedCtxOf(request), request.query.coupon_code) }),
    });

    app.post('/orders', {
      schema: {
        tags: ['Orders'],
        summary: 'Place an order from your cart',
        description:
          'Reserves stock, applies the coupon, snapshots prices and the address, empties the cart and queues the confirmation email, all or nothing. ' +
          'Errors: 404 address, 409 CART_EMPTY, 400 VARIANT_UNAVAILABLE, 409 INSUFFICIENT_STOCK (details name each short variant), 400 INVALID_COUPON, 409 COUPON_EXHAUSTED, ' +
          '409 TOTAL_CHANGED (the total exceeds the expected_total sent), 429 RATE_LIMITED.',
        headers: IdempotencyHeader,
        body: PlaceOrder,
        response: {
          201: Ok(Order),
          ...errorResponses(
            'NOT_FOUND',
            'CART_EMPTY',
            'VARIANT_UNAVAILABLE',
            'INSUFFICIENT_STOCK',
            'INVALID_COUPON',
            'COUPON_EXHAUSTED',
            'TOTAL_CHANGED',
            'IDEMPOTENCY_KEY_REUSED',
            'RATE_LIMITED',
          ),
        },
      },
      handler: async (request, reply) =>
        sendIdempotent(reply, await checkout.placeOrder(authedCtxOf(request), request.body, idempotencyOf(request))),
    });

    app.get('/orders', {
      schema: {
        tags: ['Orders'],
        summary: 'Your orders',
        querystring: OrderListQuery,
        response: { 200: Page(Order), ...errorResponses() },
      },
      handler: async (request) => ({ success: true as const, ...(await orders.listMine(authedCtxOf(request), request.query)) }),
    });

    app.get('/orders/:order_public_id', {
      schema: { tags: ['Orders'], summary: 'One of your orders', params, response: { 200: Ok(Order), ...errorResponses('NOT_FOUND') } },
      handler: async (request) => ({
        success: true as const,
        data: await orders.getMine(authedCtxOf(request), request.params.order_public_id),
      }),
    });

    app.post('/orders/:order_public_id/cancel', {
      schema: {
        tags: ['Orders'],
        summary: 'Cancel your order while PLACED or CONFIRMED (stock and coupon use are given back)',
        params,
        response: { 200: Ok(Order), ...errorResponses('NOT_FOUND', 'INVALID_TRANSITION') },
      },
      handler: async (request) => ({
        success: true as const,
        data: await orders.cancelMine(authedCtxOf(request), request.params.order_public_id),
      }),
    });

    const admin = { access: 'admin' as const };
    app.get('/admin/orders', {
      config: admin,
      schema: {
        tags: ['Admin: orders'],
        summary: 'All orders',
        querystring: AdminOrderListQuery,
        response: { 200: Page(AdminOrder), ...errorResponses() },
      },
      handler: async (request) => ({ success: true as const, ...(await orders.adminList(request.query)) }),
    });

    app.get('/admin/exports/orders', {
      config: { ...admin, csvOnly: true },
      schema: {
        tags: ['Admin: orders'],
        summary: 'Every order (optionally of one status or placed in a range) as CSV, oldest first, streamed',
        querystring: OrderExportQuery,
        response: { 200: Type.String(), ...errorResponses() },
      },
      handler: async (request, reply) => {
        const { total, batches } = await orders.adminExport(authedCtxOf(request), request.query);
        return sendCsvStream(reply, 'orders.csv', ORDER_CSV_COLUMNS, batches, total);
      },
    });

    app.get('/admin/orders/:order_public_id', {
      config: admin,
      schema: {
        tags: ['Admin: orders'],
        summary: 'An order with its customer and the statuses it can move to',
        params,
        response: { 200: Ok(AdminOrderDetail), ...errorResponses('NOT_FOUND') },
      },
      handler: async (request) => ({ success: true as const, data: await orders.adminGet(request.params.order_public_id) }),
    });

    app.patch('/admin/orders/:order_public_id', {
      config: admin,
      schema: {
        tags: ['Admin: orders'],
        summary: 'Move an order along its lifecycle',
        description:
          'PLACED -> CONFIRMED | CANCELLED; CONFIRMED -> SHIPPED (needs carrier) | CANCELLED; SHIPPED -> FULFILLED. Anything else is 409 INVALID_TRANSITION. ' +
          "The order's `allowed_transitions` lists the moves open to it now.",
        params,
        body: OrderStatusChange,
        response: { 200: Ok(AdminOrderDetail), ...errorResponses('NOT_FOUND', 'INVALID_TRANSITION', 'INSUFFICIENT_STOCK') },
      },
      handler: async (request) => ({
        success: true as const,
        data: await orders.adminChangeStatus(authedCtxOf(request), request.params.order_public_id, request.body),
      }),
    });
  };
