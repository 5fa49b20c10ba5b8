import { createReadStream, existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import { assetLogLevel } from '../lib/detail-log-level.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from '../lib/error-handler.js';
import { IN_PROCESS_ORIGIN, inProcessFetch } from './in-process.js';
import { markServing } from './serving-marker.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The storefront's catch-all: left out of the route table (it would make every path "exist" for 405s). */
    catchAll?: boolean;
  }
}

/** Paths the service answers itself; an unknown one below them gets the API's 404 envelope, never a shop page. */
export const SERVICE_PATHS = ['/api', '/admin', '/media', '/docs', '/openapi.json', '/health', '/metrics'];

/** A page's form: a few fields (the longest, a note to the shop, is 1,000 characters). */
const FORM_LIMIT = 64 * 1024;
/** The review form, which carries its photos when JavaScript is off (the API takes 5 MB a photo). */
const PHOTO_FORM = /^\/p\/[^/]+\/review$/;
const PHOTO_FORM_LIMIT = 12 * 1024 * 1024;

/** SvelteKit's server (packages/storefront/build/mount), as much of it as the mount uses. */
interface StorefrontServer {
  init(options: { env: Record<string, string>; read: (file: string) => ReadableStream }): Promise<void>;
  respond(request: Request, options: { getClientAddress(): string; platform: unknown }): Promise<Response>;
}

const owned = (pathname: string) => SERVICE_PATHS.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));

/**
 * Serves the storefront (packages/storefront, SvelteKit) at `/`, same origin as the API: every path
 * the service does not own renders a shop page. Its server-side API calls enter this service
 * in-process (inProcessFetch), acting as the shopper (their cookies, their address). Built assets are
 * served precompressed and cached for a year. A page is shared-cacheable only when the storefront says so
 * (a visitor with no cookie, built from public answers alone: docs/caching.md); the rest are private.
 * Without a build, shop paths answer 503 STOREFRONT_NOT_BUILT and the API is unaffected.
 */
export async function registerStorefront(
  app: FastifyInstance,
  options: {
    dir: string;
    publicBaseUrl: string;
    sharedCache: boolean;
    pageCacheMs: number;
    /** The catalog's ETag now (src/http-cache/policy.ts): the storefront checks pages and kept answers against it without an API call. */
    catalogTag: () => Promise<string>;
    /** The lifetimes the API gives public reads, for the storefront's answers made without one (a page's 304). */
    cachePolicy: Record<string, string>;
    /** Review forms with photos read at once (MAX_UPLOADS_IN_FLIGHT, as the image host's uploads): beyond it, 503. */
    maxUploadsInFlight: number;
  },
): Promise<void> {
  // The release the build link points at now (scripts/storefront-releases.ts): this process serves it to the
  // end, pages and assets alike, whatever is built meanwhile.
  const dir = existsSync(options.dir) ? realpathSync(options.dir) : options.dir;
  const mount = path.join(dir, 'mount');
  const client = path.join(dir, 'client');
  let server: StorefrontServer | null = null;
  if (existsSync(path.join(mount, 'index.js'))) {
    const mark = markServing(dir);
    if ('unmark' in mark) app.addHook('onClose', async () => mark.unmark());
    else app.log.warn({ release: dir, err: mark.failed }, 'storefront release not marked as served: a build made in place may prune it');
    const { Server } = (await import(pathToFileURL(path.join(mount, 'index.js')).href)) as {
      Server: new (manifest: unknown) => StorefrontServer;
    };
    const { manifest } = (await import(pathToFileURL(path.join(mount, 'manifest.js')).href)) as { manifest: unknown };
    server = new Server(manifest);
    // The storefront reads nothing from the service's environment: in-process, everything comes through `platform`.
    await server.init({
      env: {},
      read: (file) => Readable.toWeb(createReadStream(path.join(client, file))) as unknown as ReadableStream,
    });
  }
  const publicOrigin = new URL(options.publicBaseUrl).origin;
  const instance = {};
  let photoFormsInFlight = 0;

  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), access: 'public' };
      route.schema = { ...(route.schema ?? {}), hide: true };
    });
    if (server && existsSync(path.join(client, '_app'))) {
      await scope.register(fastifyStatic, {
        // The build's files: a page brings a dozen, and its own request line says enough (shown at debug).
        logLevel: assetLogLevel(app),
        root: client,
        prefix: '/',
        // Only the files there at start-up: a missing asset is a plain 404, never a page render.
        wildcard: false,
        preCompressed: true,
        globIgnore: ['**/*.br', '**/*.gz'],
        index: false,
        setHeaders: (reply, file) => {
          const immutable = file.includes(`${path.sep}_app${path.sep}immutable${path.sep}`);
          reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
        },
      });
    }

    // Form posts reach SvelteKit as they came (urlencoded, multipart): no parsing here.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

    const render = async (request: FastifyRequest, reply: FastifyReply) => {
      const pathname = pagePath(request);
      if (pathname === null || owned(pathname)) return reply.callNotFound();
      // A build's file that is not there (an old tab after a deploy) is a plain 404, never a page render.
      if (pathname.startsWith('/_app/')) return sendError(reply, 404, 'NOT_FOUND', 'No such file');
      if (!server) {
        return sendError(
          reply,
          503,
          'STOREFRONT_NOT_BUILT',
          'The storefront has not been built: run `npm run build:storefront` (npm start does it)',
        );
      }
      // Every form is read whole before its action runs: only the review form may be large, and only so many at once.
      const photos = request.method === 'POST' && PHOTO_FORM.test(pathname);
      const limit = photos ? PHOTO_FORM_LIMIT : FORM_LIMIT;
      if (Number(request.headers['content-length'] ?? 0) > limit)
        return sendError(reply, 413, 'PAYLOAD_TOO_LARGE', 'The form is too large');
      if (!photos) return respond(request, reply, server, limit);
      if (photoFormsInFlight >= options.maxUploadsInFlight) {
        reply.header('retry-after', '1');
        return sendError(reply, 503, 'SERVICE_UNAVAILABLE', 'The shop is receiving as many photos as it can; retry shortly');
      }
      photoFormsInFlight += 1;
      try {
        return await respond(request, reply, server, limit);
      } finally {
        photoFormsInFlight -= 1;
      }
    };
    const respond = async (request: FastifyRequest, reply: FastifyReply, server: StorefrontServer, limit: number) => {
      // A body sent without a length and cut off past the limit fails the form's read inside SvelteKit (a 500 there): a 413 here.
      let cut = false;
      const onCut = () => {
        cut = true;
      };
      const response = await server.respond(toWebRequest(request, publicOrigin, limit, onCut), {
        getClientAddress: () => request.ip,
        platform: {
          commerce: {
            fetch: inProcessFetch(app, request.ip, publicOrigin),
            apiOrigin: IN_PROCESS_ORIGIN,
            clientAddress: request.ip,
            requestId: String(request.id),
            instance,
            publicBaseUrl: options.publicBaseUrl,
            report: (error: unknown) =>
              cut ? request.log.info('storefront form cut off past its limit') : request.log.error({ err: error }, 'storefront error'),
            sharedCache: options.sharedCache,
            pageCacheMs: options.pageCacheMs,
            catalogTag: options.catalogTag,
            cachePolicy: options.cachePolicy,
          },
        },
      });
      if (cut) {
        await response.body?.cancel();
        return sendError(reply, 413, 'PAYLOAD_TOO_LARGE', 'The form is too large');
      }
      reply.code(response.status);
      // A 304 confirms the page the browser kept, and its headers replace the kept ones: the service's
      // own defaults (set for every response) must not stand in for the page's policy, or the kept page
      // loses its script hash (its bootstrap is blocked) and its referrer policy (its forms post
      // Origin: null, which SvelteKit's origin check refuses).
      if (response.status === 304) for (const name of PAGE_POLICY_HEADERS) reply.raw.removeHeader(name);
      response.headers.forEach((value, name) => {
        if (name !== 'set-cookie') reply.header(name, value);
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) reply.header('set-cookie', cookies);
      // Pages are rendered whole (no streaming): one buffer, one write.
      return response.body ? reply.send(Buffer.from(await response.arrayBuffer())) : reply.send();
    };
    // The API's CSRF check is not this route's: SvelteKit checks the origin of every form post, and each
    // write a page makes reaches the API with the token its form carried, checked there.
    const config = { catchAll: true, csrf: false };
    scope.route({ method: ['GET', 'HEAD', 'POST'], url: '/*', config, handler: render });
    scope.route({ method: ['GET', 'HEAD', 'POST'], url: '/', config, handler: render });
  });
}

/** Headers the pages set themselves over the service's defaults (hooks.server.ts, SvelteKit's CSP). */
const PAGE_POLICY_HEADERS = ['content-security-policy', 'referrer-policy'] as const;

/**
 * The path as SvelteKit will read it from the page request's URL: dot segments (`..`, `%2e%2e`)
 * resolved, so `/shop/../api/x` is the service's path it leads to, never a shop page.
 */
function pagePath(request: FastifyRequest): string | null {
  // A request target in absolute form (`GET http://host/x`) or `*` names no page here.
  if (!request.url.startsWith('/')) return null;
  const raw = request.url.split('?')[0] ?? '/';
  // Only these can make the URL parser's path differ in a way that matters here: a dot segment (`.`,
  // `%2e`), a backslash (read as a slash), a fragment (`#`, cut off).
  if (!/[.%\\#]/.test(raw)) return raw;
  try {
    return new URL(`http://service${request.url}`).pathname;
  } catch {
    return null;
  }
}

/**
 * The page request as SvelteKit takes it: the origin as the service sees it (trust-proxy rules; a host
 * and protocol the service answers for, http-protocol.ts), the public one for an HTTP/1.0 request
 * without a host, the body as a stream.
 */
function toWebRequest(request: FastifyRequest, publicOrigin: string, bodyLimit: number, onCut: () => void): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const origin = request.host ? `${request.protocol}://${request.host}` : publicOrigin;
  return new Request(origin + request.url, {
    method: request.method,
    headers,
    ...(hasBody ? { body: limited(request.raw, bodyLimit, onCut), duplex: 'half' } : {}),
  } as RequestInit);
}

/** The raw body, cut off with an error past `limit` (a body sent without Content-Length), told to `onCut`. */
function limited(raw: NodeJS.ReadableStream, limit: number, onCut: () => void): ReadableStream {
  let seen = 0;
  return new ReadableStream({
    async start(controller) {
      try {
        for await (const chunk of raw) {
          seen += (chunk as Buffer).length;
          if (seen > limit) {
            onCut();
            throw new Error('The form is too large');
          }
          controller.enqueue(new Uint8Array(chunk as Buffer));
        }
        controller.close();
      } catch (error) {
        controller.error(error);
      }
    },
  });
}
