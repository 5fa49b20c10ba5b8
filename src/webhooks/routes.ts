import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { authedCtxOf } from '../auth/guard.js';
import { IdParam, NoContent, Ok, Page, errorResponses, sendEmpty } from '../lib/schemas.js';
import {
  CreatedEndpoint,
  Delivery,
  DeliveryDetail,
  DeliveryListQuery,
  Endpoint,
  EndpointCreate,
  EndpointListQuery,
  EndpointPatch,
  EventTypeInfo,
  Redelivered,
  RedeliverFailed,
  RotatedSecret,
  SecretRotation,
} from './schemas.js';
import type { WebhookService } from './service.js';

export const webhookRoutes =
  (deps: { webhooks: WebhookService }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { webhooks } = deps;
    const config = { access: 'super_admin' as const };
    const tags = ['Admin: webhooks'];
    const params = IdParam('endpoint_public_id', 'whe');
    const deliveryParams = Type.Object({ ...params.properties, ...IdParam('delivery_public_id', 'dlv').properties });
    const base = '/admin/webhooks/endpoints';

    app.get('/admin/webhooks/event-types', {
      config,
      schema: {
        tags,
        summary: 'The event catalog: every type, its payload version and what orders its deliveries',
        description: "Each type's payload is described under this document's `webhooks`.",
        response: { 200: Ok(Type.Array(EventTypeInfo)), ...errorResponses() },
      },
      handler: async () => ({ success: true as const, data: webhooks.eventTypes() }),
    });

    app.get(base, {
      config,
      schema: {
        tags,
        summary: 'Webhook endpoints, newest first',
        querystring: EndpointListQuery,
        response: { 200: Page(Endpoint), ...errorResponses() },
      },
      handler: async (request) => ({ success: true as const, ...(await webhooks.list(request.query)) }),
    });

    app.post(base, {
      config,
      schema: {
        tags,
        summary: 'Add an endpoint; its signing secret is in this answer only',
        body: EndpointCreate,
        response: { 201: Ok(CreatedEndpoint), ...errorResponses() },
      },
      handler: async (request, reply) =>
        reply.code(201).send({ success: true as const, data: await webhooks.create(authedCtxOf(request), request.body) }),
    });

    app.get(`${base}/:endpoint_public_id`, {
      config,
      schema: { tags, summary: 'One endpoint', params, response: { 200: Ok(Endpoint), ...errorResponses('NOT_FOUND') } },
      handler: async (request) => ({ success: true as const, data: await webhooks.get(request.params.endpoint_public_id) }),
    });

    app.patch(`${base}/:endpoint_public_id`, {
      config,
      schema: {
        tags,
        summary: 'Edit an endpoint, pause it or resume it',
        params,
        body: EndpointPatch,
        response: { 200: Ok(Endpoint), ...errorResponses('NOT_FOUND') },
      },
      handler: async (request) => ({
        success: true as const,
        data: await webhooks.update(authedCtxOf(request), request.params.endpoint_public_id, request.body),
      }),
    });

    app.delete(`${base}/:endpoint_public_id`, {
      config,
      schema: {
        tags,
        summary: 'Delete an endpoint; what it had not received yet is cancelled',
        params,
        response: { 204: NoContent, ...errorResponses('NOT_FOUND') },
      },
      handler: async (request, reply) => {
        await webhooks.remove(authedCtxOf(request), request.params.endpoint_public_id);
        return sendEmpty(reply, 204);
      },
    });

    app.post(`${base}/:endpoint_public_id/rotate-secret`, {
      config,
      schema: {
        tags,
        summary: 'A new signing secret (in this answer only); the old one keeps signing beside it for the overlap',
        params,
        body: SecretRotation,
        response: { 200: Ok(RotatedSecret), ...errorResponses('NOT_FOUND') },
      },
      handler: async (request) => ({
        success: true as const,
        data: await webhooks.rotateSecret(authedCtxOf(request), request.params.endpoint_public_id, request.body.overlap_seconds),
      }),
    });

    app.post(`${base}/:endpoint_public_id/test`, {
      config,
      schema: {
        tags,
        summary: 'Send a `webhook.test` event to this endpoint only',
        params,
        response: { 202: Ok(Delivery), ...errorResponses('NOT_FOUND') },
      },
      handler: async (request, reply) =>
        reply
          .code(202)
          .send({ success: true as const, data: await webhooks.sendTest(authedCtxOf(request), request.params.endpoint_public_id) }),
    });

    app.get(`${base}/:endpoint_public_id/deliveries`, {
      config,
      schema: {
        tags,
        summary: "The endpoint's delivery log, newest first",
        params,
        querystring: DeliveryListQuery,
        response: { 200: Page(Delivery), ...errorResponses('NOT_FOUND') },
      },
      handler: async (request) => ({
        success: true as const,
        ...(await webhooks.deliveries(request.params.endpoint_public_id, request.query)),
      }),
    });

    app.get(`${base}/:endpoint_public_id/deliveries/:delivery_public_id`, {
      config,
      schema: {
        tags,
        summary: 'One delivery, with the body it sends',
        params: deliveryParams,
        response: { 200: Ok(DeliveryDetail), ...errorResponses('NOT_FOUND') },
      },
      handler: async (request) => ({
        success: true as const,
        data: await webhooks.delivery(request.params.endpoint_public_id, request.params.delivery_public_id),
      }),
    });

    app.post(`${base}/:endpoint_public_id/deliveries/:delivery_public_id/redeliver`, {
      config,
      schema: {
        tags,
        summary: 'Send one delivery again, with the same webhook-id',
        params: deliveryParams,
        response: { 202: Ok(Delivery), ...errorResponses('NOT_FOUND') },
      },
      handler: async (request, reply) =>
        reply.code(202).send({
          success: true as const,
          data: await webhooks.redeliver(authedCtxOf(request), request.params.endpoint_public_id, request.params.delivery_public_id),
        }),
    });

    app.post(`${base}/:endpoint_public_id/redeliver`, {
      config,
      schema: {
        tags,
        summary: 'Send again every delivery that failed for good, for events since a time',
        params,
        body: RedeliverFailed,
        response: { 202: Ok(Redelivered), ...errorResponses('NOT_FOUND') },
      },
      handler: async (request, reply) =>
        reply.code(202).send({
          success: true as const,
          data: await webhooks.redeliverFailed(authedCtxOf(request), request.params.endpoint_public_id, request.body.since),
        }),
    });
  };
