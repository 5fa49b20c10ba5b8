import type { FastifyInstance } from 'fastify';

/** The origin the storefront names the service's API by when it runs inside the service (handed to it as platform.commerce.apiOrigin). */
export const IN_PROCESS_ORIGIN = 'http://commerce.internal';

/**
 * A fetch for the storefront's server-side API calls that enters the service in-process (Fastify's
 * inject: the whole request pipeline, hooks, guard and schemas included, without a socket or HTTP
 * parsing). The API sees the shopper's address as the request's own, so per-address rate limits and
 * the audit log hold for storefront traffic. Requests to this service's public origin (its own image
 * host) go the same way; anything else (ImageKit) goes over the network.
 */
export function inProcessFetch(app: FastifyInstance, clientAddress: string, publicOrigin: string): typeof fetch {
  return async (input, init) => {
    // The storefront's fetches hand over a Request of their own (answer-cache.ts): read as it is, not copied.
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== IN_PROCESS_ORIGIN && url.origin !== publicOrigin) return fetch(request);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const response = await app.inject({
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers,
      ...(request.body ? { payload: Buffer.from(await request.arrayBuffer()) } : {}),
      remoteAddress: clientAddress,
    });
    const answer = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) answer.append(name, String(one));
    }
    const empty = response.statusCode === 204 || response.statusCode === 304 || request.method === 'HEAD';
    return new Response(empty ? null : response.rawPayload, { status: response.statusCode, headers: answer });
  };
}
