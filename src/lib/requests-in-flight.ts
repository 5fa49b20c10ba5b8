import type { FastifyInstance } from 'fastify';

/**
 * Counts the requests the server is answering, each from its arrival until
 * its response is finished or its connection is gone (the response's `close`
 * comes once either way, so an aborted request is not counted for ever).
 * Register it before any hook that may refuse a request.
 */
export function countRequestsInFlight(app: FastifyInstance): () => number {
  let inFlight = 0;
  app.addHook('onRequest', (_request, reply, done) => {
    inFlight += 1;
    reply.raw.once('close', () => (inFlight -= 1));
    done();
  });
  return () => inFlight;
}
