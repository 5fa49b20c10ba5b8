import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authedCtxOf } from '../auth/guard.js';
import { IdempotencyHeader, idempotencyOf, sendIdempotent } from '../idempotency/idempotency.js';
import { IdParam, NoContent, Ok, errorResponses, sendEmpty } from '../lib/schemas.js';
import { Availability, AvailabilityQuestion, Cart, CartItemAdd, CartItemSet } from './schemas.js';
import type { CartService } from './service.js';

export const cartRoutes =
  (deps: { cart: CartService }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { cart } = deps;
    const tags = ['Cart'];
    const params = IdParam('variant_public_id', 'var');

    app.get('/cart', {
      schema: { tags, summary: 'Your cart (empty rather than 404)', response: { 200: Ok(Cart), ...errorResponses() } },
      handler: async (request) => ({ success: true as const, data: await cart.get(authedCtxOf(request)) }),
    });

    app.post('/cart/availability', {
      // A read for a cart the API does not keep (a visitor's, before they sign in): no session needed, and no
      // CSRF token, since it changes nothing (POST carries the lines; the answer is never cached).
      config: { access: 'public', csrf: false },
      schema: {
        tags,
        summary: 'Whether lines of a cart kept elsewhere can be bought now, as a cart line says it (`available`, `quantity_available`)',
        body: AvailabilityQuestion,
        response: { 200: Ok(Availability), ...errorResponses() },
      },
      handler: async (request) => ({ success: true as const, data: await cart.availability(request.body) }),
    });

    app.post('/cart/items', {
      schema: {
        tags,
        summary: 'Add a variant (adds to its line if present); answers with the whole cart',
        description:
          'With an `Idempotency-Key`, sending the same add again within 24 hours (a retry after a lost answer, a form sent twice) ' +
          'adds once; every answer is the cart as it is now, marked `Idempotent-Replayed: true` after the first. ' +
          'A cart holds at most MAX_CART_LINES lines (100 unless configured): a variant not in a full cart is 409 CART_FULL.',
        headers: IdempotencyHeader,
        body: CartItemAdd,
        response: { 200: Ok(Cart), ...errorResponses('NOT_FOUND', 'CART_FULL', 'CONFLICT', 'IDEMPOTENCY_KEY_REUSED') },
      },
      handler: async (request, reply) => sendIdempotent(reply, await cart.add(authedCtxOf(request), request.body, idempotencyOf(request))),
    });

    app.patch('/cart/items/:variant_public_id', {
      schema: {
        tags,
        summary: "Set a line's quantity",
        params,
        body: CartItemSet,
        response: { 200: Ok(Cart), ...errorResponses('NOT_FOUND') },
      },
      handler: async (request) => ({
        success: true as const,
        data: await cart.setQuantity(authedCtxOf(request), request.params.variant_public_id, request.body),
      }),
    });

    app.delete('/cart/items/:variant_public_id', {
      schema: { tags, summary: 'Remove a line', params, response: { 200: Ok(Cart), ...errorResponses('NOT_FOUND') } },
      handler: async (request) => ({
        success: true as const,
        data: await cart.removeLine(authedCtxOf(request), request.params.variant_public_id),
      }),
    });

    app.delete('/cart', {
      schema: { tags, summary: 'Empty the cart', response: { 204: NoContent, ...errorResponses() } },
      handler: async (request, reply) => {
        await cart.clear(authedCtxOf(request));
        return sendEmpty(reply, 204);
      },
    });
  };
