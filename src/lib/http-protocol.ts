import type { FastifyInstance } from 'fastify';
import { writeErrorToSocket } from './error-handler.js';
import { expectationFailed, validationError } from './errors.js';

/**
 * Requests Node's HTTP server would answer itself, bare (no body, request ID
 * or security headers), are let through to the app and refused here, in the
 * envelope. The server must be created with `serverOptions`.
 *
 * - An HTTP/1.1 request without Host, and one with two Host headers (Node
 *   keeps the first and drops the rest, so the two could name different
 *   sites to a proxy and to us): 400.
 * - An Expect header other than 100-continue: 417 (Node calls the
 *   `checkExpectation` listener instead of answering).
 * - CONNECT (this is not a proxy): 400, written to the socket, which Node
 *   hands over without a response object.
 * - A host that is no host name (`name[:port]`, `[IPv6][:port]`) or a
 *   protocol other than http and https, as the service reads them (Host, or
 *   a trusted proxy's X-Forwarded-Host and X-Forwarded-Proto): 400. Pages
 *   are rendered for the URL they make, and a `/` or `?` there would render
 *   another page than the path asked for, which a cache in front would keep
 *   under this path.
 *
 * What Node's parser refuses before any of this runs (malformed HTTP,
 * headers past 16 KB, a request that is too slow) is answered by
 * `clientErrorHandler` in src/lib/error-handler.ts.
 *
 * Node checks its timeouts every `connectionsCheckingInterval` (30 s by
 * default); here every quarter of the headers' allowance, which is never
 * longer than the whole request's, so a slow request is cut at most that
 * long after its allowance ends.
 */
export function serverOptions(requestTimeoutMs: number) {
  const headersTimeout = requestTimeoutMs > 0 ? Math.min(60_000, requestTimeoutMs) : 60_000;
  return {
    requireHostHeader: false,
    headersTimeout,
    connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.round(headersTimeout / 4))),
  };
}

const CONTINUE = /(?:^|\W)100-continue(?:$|\W)/i;
/** A host name of letters, digits, `-` and `_` in dot-separated labels (a final dot allowed), or a bracketed IPv6 address; then a port. */
const HOST =
  /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?|\[[0-9a-f:.]{2,45}\])(?::(\d{1,5}))?$/i;

/** Whether `host` (from Host or a trusted X-Forwarded-Host) names a host, and `protocol` is one the service speaks. */
export function isServiceAuthority(host: string, protocol: string | undefined): boolean {
  if (protocol !== 'http' && protocol !== 'https') return false;
  if (host === '') return true;
  const match = host.length <= 261 ? HOST.exec(host) : null;
  return match !== null && (match[1] === undefined || Number(match[1]) <= 65_535);
}

export function registerProtocolChecks(app: FastifyInstance): void {
  app.server.on('checkExpectation', (request, response) => app.routing(request, response));
  app.server.on('connect', (_request, socket) => {
    writeErrorToSocket(socket, 400, 'VALIDATION_ERROR', 'CONNECT is not supported: this server is not a proxy');
    socket.end();
  });
  app.addHook('onRequest', async (request) => {
    const raw = request.raw;
    let hosts = 0;
    for (let i = 0; i < raw.rawHeaders.length; i += 2) if (raw.rawHeaders[i]!.toLowerCase() === 'host') hosts += 1;
    if (hosts > 1) throw validationError('Send one Host header', [{ field: 'host', message: 'is repeated' }]);
    const http11 = raw.httpVersionMajor === 1 && raw.httpVersionMinor >= 1;
    if (hosts === 0 && http11) throw validationError('The Host header is required', [{ field: 'host', message: 'is required' }]);
    if (!isServiceAuthority(request.host, request.protocol)) {
      throw validationError('The host or protocol is not one this service answers for', [
        { field: 'host', message: 'must be a host name with an optional port, over http or https' },
      ]);
    }
    const expect = raw.headers.expect;
    if (expect !== undefined && http11 && !CONTINUE.test(expect)) throw expectationFailed();
  });
}
