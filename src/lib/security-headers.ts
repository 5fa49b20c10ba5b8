import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/**
 * Helmet's default security headers on every response, the middleware built once (the Fastify
 * plugin rebuilds it per request). app.ts runs it on every request. Nothing the service serves is
 * meant to be framed, not even by itself: the API's answers say so as the shop's pages and the
 * console's shell do (frame-ancestors 'none' and X-Frame-Options DENY, not helmet's 'self').
 */
export const securityHeaders = helmet({
  frameguard: { action: 'deny' },
  contentSecurityPolicy: { directives: { frameAncestors: ["'none'"] } },
});

/**
 * The same headers as raw header lines, as helmet itself sets them on a response, written out once:
 * an answer written straight to a socket (error-handler.ts) has no response object to run it on.
 */
export const SOCKET_SECURITY_HEADERS: string = (() => {
  const lines: string[] = [];
  const response = { setHeader: (name: string, value: unknown) => lines.push(`${name}: ${String(value)}\r\n`), removeHeader: () => {} };
  securityHeaders({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return lines.join('');
})();
