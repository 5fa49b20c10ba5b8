import { createApi, type Api } from '../packages/client/src/index.js';
import { buildApp } from '../src/app.js';
import type { Config } from '../src/config.js';
import type { Db } from '../src/db/database.js';

export interface SeedApi {
  baseUrl: string;
  /** A client signed in as `email`. */
  signedIn(email: string, password: string): Promise<Api>;
  close(): Promise<void>;
}

/**
 * The service in this process on a loopback port, for the seed steps that go through the real API
 * (so stock, reservations, history and stored uploads stay consistent). No email worker runs (the
 * service delivers the queued mail when it runs) and upload limits are off: the seed uploads every
 * product's pictures as one admin. Uploads to the service's own image host (named by its
 * PUBLIC_BASE_URL, where no service may be listening yet) go to this instance. Nor does it deliver
 * events (webhooks, cache purges): the service does, from the outbox the seed's writes fill.
 */
export async function startSeedApi(config: Config, db: Db): Promise<SeedApi> {
  const app = await buildApp({
    // No dispatcher either: it would make the cache targets this process's CACHE_PURGE_URLS (likely none), taking the deployment's away.
    config: {
      ...config,
      logLevel: 'warn',
      emailPollIntervalMs: 3_600_000,
      events: { ...config.events, worker: 'off' },
      rateLimits: { ...config.rateLimits, UPLOAD: null },
    } as Config,
    db,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const fetchHere: typeof fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return fetch(url.startsWith(config.publicBaseUrl) ? baseUrl + url.slice(config.publicBaseUrl.length) : url, init);
  };
  const sessions: Api[] = [];
  return {
    baseUrl,
    async signedIn(email, password) {
      const api = createApi({ baseUrl, fetch: fetchHere });
      await api.POST('/api/v1/auth/login', { body: { email, password } });
      sessions.push(api);
      return api;
    },
    // The seed's sessions end with it: no demo account lists a device it never used.
    async close() {
      for (const api of sessions) await api.DELETE('/api/v1/auth/session', {}).catch(() => undefined);
      await app.close();
    },
  };
}
