import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../db/database.js';
import type { SchemaGate } from '../db/schema-state.js';
import { sendError } from '../lib/error-handler.js';
import { Ok, errorResponses } from '../lib/schemas.js';
import { ping } from './repository.js';

/** Liveness and readiness probes; they sit outside /api/v1. */
export const healthRoutes =
  (deps: { db: Db; schema: Pick<SchemaGate, 'pending'>; stopping: () => boolean }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['Health'];
    const Status = Ok(Type.Object({ status: Type.String() }));

    app.get('/health', {
      config: { access: 'public' },
      schema: { tags, summary: 'Liveness: the process is up', response: { 200: Status } },
      handler: async () => ({ success: true as const, data: { status: 'ok' } }),
    });

    app.get('/health/ready', {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Readiness: the instance is not stopping, the database answers and its schema matches this version',
        response: { 200: Status, ...errorResponses('NOT_READY') },
      },
      handler: async (request, reply) => {
        // A balancer stops sending here while the instance still serves (SHUTDOWN_DELAY_MS).
        if (deps.stopping()) return sendError(reply, 503, 'NOT_READY', 'This instance is shutting down');
        const waiting = deps.schema.pending();
        if (waiting !== null) return sendError(reply, 503, 'NOT_READY', waiting);
        try {
          await ping(deps.db);
          return { success: true as const, data: { status: 'ready' } };
        } catch (error) {
          request.log.warn({ err: error }, 'readiness check failed');
          return sendError(reply, 503, 'NOT_READY', 'The database is not reachable');
        }
      },
    });
  };
