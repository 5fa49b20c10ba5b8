import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { MIGRATION_NAMES } from '../db/migrate.js';
import { createCatalogVersion } from './catalog-version.js';

/**
 * What every response tells HTTP caches (docs/caching.md).
 *
 * A public read (the catalog: products, categories, approved reviews, the
 * shop's settings) calls `notModified` first. Its validator is an ETag made of
 * the catalog's version (migration 0018: it moves at the commit of any change
 * a shopper can see) and this release's shapes, read before any of the data or
 * in the same statement, so a body is never older than its ETag says; when the
 * request's If-None-Match already holds it, the route answers 304 without
 * building the body. The route then names what it shows (`keys`): the
 * surrogate keys purges are aimed at.
 *
 * On the way out (`onSend`): a public read answered 200 or 304 and setting
 * no cookie gets the shared-cache Cache-Control and its keys (`Surrogate-Key`
 * for Varnish and Fastly, `Cache-Tag` for Cloudflare). A public read that
 * failed, and anything that sets a cookie, is `no-store`. Every other
 * response (sessions, carts, accounts, orders, admin) is `private, no-store`
 * unless its route chose its own caching (uploaded images are immutable).
 */
declare module 'fastify' {
  interface FastifyReply {
    /** Set by notModified on a public read: the surrogate keys of what it shows (empty until `keys`). */
    cacheKeys: string[] | null;
  }
}

const PRIVATE = 'private, no-store';

export function createHttpCache({ db }: { db: Db }) {
  const version = createCatalogVersion(db);
  let release = 'r';
  const etagOf = (catalogVersion: number) => `"${release}.${catalogVersion}"`;
  return {
    /** Names this build's response shapes (the OpenAPI document and the schema), so a release that changes them changes every ETag. */
    setRelease(document: unknown) {
      release = createHash('sha256')
        .update(JSON.stringify(document))
        .update(String(MIGRATION_NAMES.length))
        .digest('base64url')
        .slice(0, 10);
    },

    /** The ETag every catalog read answers with now (the storefront, in-process, checks its pages and kept answers against it). */
    async currentTag(): Promise<string> {
      return etagOf(await version.read());
    },

    /**
     * Starts a public read: true when the request's If-None-Match holds the current ETag (answer 304,
     * build nothing). A conditional request reads the version first, alone. A route that reads its
     * data in one statement with the version (`versionWithData`) reads none here for an unconditional
     * request, and hands the version its statement saw to `keys`: one round trip, not two.
     */
    async notModified(request: FastifyRequest, reply: FastifyReply, options: { versionWithData?: boolean } = {}): Promise<boolean> {
      reply.cacheKeys = [];
      const condition = request.headers['if-none-match'];
      if (options.versionWithData && condition === undefined) return false;
      const etag = etagOf(await version.read());
      reply.header('etag', etag);
      return ifNoneMatch(condition, etag);
    },

    /**
     * A public read of what is fixed for the process's life (the shop's settings come from its
     * configuration): its ETag names `data` itself, so no version is read. True when If-None-Match holds it.
     */
    notModifiedFixed(request: FastifyRequest, reply: FastifyReply, data: unknown, keys: readonly string[]): boolean {
      const etag = `"${release}.${createHash('sha256').update(JSON.stringify(data)).digest('base64url').slice(0, 12)}"`;
      reply.header('etag', etag);
      reply.cacheKeys = [...keys];
      return ifNoneMatch(request.headers['if-none-match'], etag);
    },

    /**
     * The surrogate keys of what a public read shows, and (when `notModified` read no version) the
     * version its data was read at. Either way the ETag is never newer than the body.
     */
    keys(reply: FastifyReply, keys: readonly string[], dataVersion?: number | null) {
      reply.cacheKeys = [...keys];
      if (reply.hasHeader('etag')) return;
      if (dataVersion === undefined || dataVersion === null) {
        throw new Error('A public read needs its version: read first (notModified) or with its data');
      }
      reply.header('etag', etagOf(dataVersion));
    },
  };
}

export type HttpCache = ReturnType<typeof createHttpCache>;

/** RFC 9110 13.1.2: `*`, or a list of entity tags compared weakly. */
export function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** The lifetimes of a public read, as shared caches and browsers are told them (CACHE_*). */
export function sharedCachePolicy(
  config: Config['httpCache'],
): Record<'cache-control' | 'surrogate-control' | 'cdn-cache-control', string> {
  const staleIfError = config.staleIfError > 0 ? `, stale-if-error=${config.staleIfError}` : '';
  // stale-while-revalidate is for shared caches only, so it goes in the fields they alone read
  // (Surrogate-Control: Varnish, Fastly; CDN-Cache-Control, RFC 9213: Cloudflare, Akamai). In
  // Cache-Control, browsers apply it too: Chromium then shows a stale answer right after a write
  // while it revalidates in the background, and the console would show a change undone.
  const surrogate =
    `max-age=${config.sMaxAge}` +
    (config.staleWhileRevalidate > 0 ? `, stale-while-revalidate=${config.staleWhileRevalidate}` : '') +
    staleIfError;
  return {
    'cache-control': `public, max-age=${config.maxAge}, s-maxage=${config.sMaxAge}${staleIfError}`,
    'surrogate-control': surrogate,
    'cdn-cache-control': surrogate,
  };
}

export function registerCacheHeaders(app: FastifyInstance, config: Config['httpCache'], varyOrigin: boolean): void {
  const policy = sharedCachePolicy(config);
  app.decorateReply('cacheKeys', null);
  app.addHook('onSend', async (_request, reply, payload) => {
    const keys = reply.cacheKeys ?? null; // undefined in scopes registered before the decorator
    const cookie = reply.hasHeader('set-cookie');
    if (keys !== null && (reply.statusCode === 200 || reply.statusCode === 304) && !cookie) {
      for (const [name, value] of Object.entries(policy)) reply.header(name, value);
      const vary = String(reply.getHeader('vary') ?? '');
      if (varyOrigin && !/\borigin\b/i.test(vary)) reply.header('vary', vary ? `${vary}, Origin` : 'Origin');
      if (keys.length > 0) {
        reply.header('surrogate-key', keys.join(' '));
        reply.header('cache-tag', keys.join(','));
      }
    } else if (keys !== null || cookie) {
      reply.removeHeader('etag');
      reply.header('cache-control', keys !== null && !cookie ? 'no-store' : PRIVATE);
    } else if (!reply.hasHeader('cache-control')) {
      reply.header('cache-control', PRIVATE);
    }
    return payload;
  });
}
