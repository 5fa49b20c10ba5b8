import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authedCtxOf } from '../auth/guard.js';
import { IdempotencyHeader, idempotencyOf, sendIdempotent } from '../idempotency/idempotency.js';
import { PageOnlyQuery } from '../lib/pagination.js';
import { IdParam, NoContent, Ok, Page, errorResponses, sendEmpty } from '../lib/schemas.js';
import { Address, AddressCreate, AddressPatch } from './schemas.js';
import type { AddressService } from './service.js';

export const addressRoutes =
  (deps: { addresses: AddressService }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { addresses } = deps;
    const tags = ['Addresses'];
    const params = IdParam('address_public_id', 'adr');

    app.get('/users/me/addresses', {
      schema: {
        tags,
        summary: 'List your addresses, newest first',
        querystring: PageOnlyQuery,
        response: { 200: Page(Address), ...errorResponses() },
      },
      handler: async (request) => ({ success: true as const, ...(await addresses.list(authedCtxOf(request), request.query)) }),
    });

    app.post('/users/me/addresses', {
      schema: {
        tags,
        summary: 'Add an address (the first one becomes both defaults)',
        description:
          'With an `Idempotency-Key`, the same address sent again (a form pressed twice, a retry after a lost answer) is added once: the first answer is replayed.',
        headers: IdempotencyHeader,
        body: AddressCreate,
        response: { 201: Ok(Address), ...errorResponses('ADDRESS_BOOK_FULL', 'CONFLICT', 'IDEMPOTENCY_KEY_REUSED') },
      },
      handler: async (request, reply) =>
        sendIdempotent(reply, await addresses.create(authedCtxOf(request), request.body, idempotencyOf(request))),
    });

    app.get('/users/me/addresses/:address_public_id', {
      schema: { tags, summary: 'Get one of your addresses', params, response: { 200: Ok(Address), ...errorResponses('NOT_FOUND') } },
      handler: async (request) => ({
        success: true as const,
        data: await addresses.get(authedCtxOf(request), request.params.address_public_id),
      }),
    });

    app.patch('/users/me/addresses/:address_public_id', {
      schema: {
        tags,
        summary: 'Update an address',
        params,
        body: AddressPatch,
        response: { 200: Ok(Address), ...errorResponses('NOT_FOUND', 'DEFAULT_ADDRESS_REQUIRED', 'CONFLICT') },
      },
      handler: async (request) => ({
        success: true as const,
        data: await addresses.update(authedCtxOf(request), request.params.address_public_id, request.body),
      }),
    });

    app.delete('/users/me/addresses/:address_public_id', {
      schema: {
        tags,
        summary: 'Delete an address (soft); a default it held moves to the oldest remaining address',
        params,
        response: { 204: NoContent, ...errorResponses('NOT_FOUND') },
      },
      handler: async (request, reply) => {
        await addresses.remove(authedCtxOf(request), request.params.address_public_id);
        return sendEmpty(reply, 204);
      },
    });
  };
