import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Counts the requests the server is answering, each from its arrival until
 * its response closes or its connection does, whichever comes first. Both,
 * because a response queued behind an earlier one on a pipelined connection
 * never closes if the connection goes first; each request is taken back
 * once. Register it before any hook that may refuse a request.
 */
export function countRequestsInFlight(app: FastifyInstance): () => number {
  let inFlight = 0;
  /** Per connection, the take-backs of its requests still in flight (one `close` listener per connection). */
  const open = new WeakMap<Socket, Set<() => void>>();
  const requestsOf = (socket: Socket) => {
    let requests = open.get(socket);
    if (!requests) {
      const created = (requests = new Set());
      open.set(socket, created);
      socket.once('close', () => created.forEach((takeBack) => takeBack()));
    }
    return requests;
  };
  app.addHook('onRequest', (request, reply, done) => {
    const requests = requestsOf(request.raw.socket);
    const takeBack = () => {
      if (requests.delete(takeBack)) inFlight -= 1;
    };
    inFlight += 1;
    requests.add(takeBack);
    reply.raw.once('close', takeBack);
    done();
  });
  return () => inFlight;
}
