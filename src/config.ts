import { isIP } from 'node:net';
import path from 'node:path';

/**
 * The one place that reads the environment. Everything is parsed and checked
 * once at start-up; a bad value stops the process with a message naming the
 * variable. The result is frozen and handed to whoever needs it.
 */

export type RateLimitName = 'LOGIN' | 'LOGIN_IP' | 'REGISTER' | 'PASSWORD_RESET' | 'EMAIL_CHANGE' | 'CHECKOUT' | 'VERIFY_RESEND' | 'UPLOAD';

/** `count` events per `windowSeconds`; `null` means the limit is switched off. */
export type RateLimitRule = { count: number; windowSeconds: number } | null;

export interface Config {
  readonly env: 'production' | 'development' | 'test';
  readonly port: number;
  readonly host: string;
  /**
   * Whose X-Forwarded-For to believe: a hop count, or the proxies' addresses
   * and CIDR ranges (`loopback`, `linklocal`, `uniquelocal` name the private
   * ones); false believes none. The client address, which per-address rate
   * limits and the audit log use, is the first untrusted hop from the right.
   */
  readonly trustProxy: number | string | false;
  /** External PostgreSQL; when absent an embedded server runs under `dataDir`. */
  readonly databaseUrl: string | null;
  readonly dbPoolSize: number;
  /** A statement without an answer this long gives its connection up (a frozen or unreachable server). */
  readonly dbQueryTimeoutMs: number;
  /**
   * Where migrations run (on start and `npm run db:migrate`): a direct URL when DATABASE_URL is a
   * pooler's; `null` uses DATABASE_URL.
   */
  readonly migrationDatabaseUrl: string | null;
  /** Apply pending migrations at start-up; when false an instance on an older schema waits, not ready, until they are applied. */
  readonly migrateOnStart: boolean;
  /**
   * How long a migration's statement waits for a table lock (PostgreSQL's lock_timeout) before the
   * migration steps back and tries again: while it waits, every query on that table queues behind it.
   */
  readonly migrationLockTimeoutMs: number;
  /** Name statements so each connection prepares them once; false sends them unnamed (poolers that do not keep them). */
  readonly dbNamedStatements: boolean;
  readonly dataDir: string;
  /** The console's production build, served at /admin. */
  readonly consoleDir: string;
  /** The storefront's production build (packages/storefront/build), served at `/`. */
  readonly storefrontDir: string;
  readonly publicBaseUrl: string;
  /** Whether PUBLIC_BASE_URL was set, rather than the default made from PORT (a standalone worker's PORT is not the API's). */
  readonly publicBaseUrlSet: boolean;
  readonly corsOrigins: readonly string[];
  readonly cookieSecure: boolean;
  readonly sessionTtlDays: number;
  readonly sessionIdleDays: number;
  readonly staffSessionTtlHours: number;
  readonly staffSessionIdleHours: number;
  readonly imagekit: { readonly publicKey: string; readonly privateKey: string; readonly urlEndpoint: string } | null;
  /** The built-in image host's signing key; when absent, one is generated once and kept in the database. */
  readonly mediaSigningKey: string | null;
  readonly smtpUrl: string | null;
  readonly mailFrom: string;
  readonly logLevel: string;
  /** `pretty`: human-readable lines (pino-pretty), the default in development; `json`: one JSON object a line, the default otherwise. */
  readonly logFormat: 'json' | 'pretty';
  /**
   * When the routes' request validators and response serializers are compiled: `start` (the
   * default in production: a schema that cannot compile stops the start, and no request pays for
   * a compile) or `first-use` (the default otherwise: about 0.4 s of CPU less per start).
   */
  readonly schemaCompile: 'start' | 'first-use';
  /** The Prometheus endpoint's own listener (`null` port: none) and its optional bearer token. */
  readonly metrics: {
    readonly host: string;
    readonly port: number | null;
    /** `npm run worker`'s own listener (WORKER_METRICS_PORT): a worker beside an API on one host must not want the API's port. */
    readonly workerPort: number | null;
    readonly token: string | null;
  };
  /** How long a SIGTERM/SIGINT waits for in-flight requests and the email worker before closing what is left. */
  readonly shutdownGraceMs: number;
  /**
   * How long a SIGTERM/SIGINT keeps serving, readiness answering 503, before the drain begins: time
   * for a balancer's health checks to take the instance out, so none of its kept-alive connections
   * is closed under a request. Part of the grace period.
   */
  readonly shutdownDelayMs: number;
  /**
   * How long a request may take to arrive, headers and body (Node's `requestTimeout`): a client that
   * stalls is answered 408 and its connection closed, so it holds neither a socket nor a place in the
   * count of requests in flight that the event dispatcher yields to. `0`: no limit.
   */
  readonly requestTimeoutMs: number;
  /** How often the email worker looks for pending messages. */
  readonly emailPollIntervalMs: number;
  /** How long a claimed message stays hidden from other workers without a heartbeat (renewed every third of it). */
  readonly emailLeaseMs: number;
  /** `in-process`: the API process delivers the outbox; `off`: a separate `npm run worker` does. */
  readonly emailWorker: 'in-process' | 'off';
  /** The event dispatcher (src/events/): where it runs, how often it looks, how long a claim lasts. */
  readonly events: {
    /** `in-process`: the API process delivers events; `off`: `npm run worker` processes do. */
    readonly worker: 'in-process' | 'off';
    readonly pollIntervalMs: number;
    /** How long claimed deliveries stay hidden from other dispatchers; more than twice an attempt's timeout. */
    readonly leaseMs: number;
    /**
     * With this many requests in flight in the API process, its dispatcher yields to them: one claim
     * per poll interval, however much is due (0: never yields). `npm run worker` never yields.
     */
    readonly yieldAtRequests: number;
  };
  readonly webhooks: {
    /** One attempt's deadline: resolution, connection, answer and its first bytes. */
    readonly timeoutMs: number;
    /** Retries: exponential from `baseMs` up to `maxMs` between attempts, for `windowMs` after the first. */
    readonly retry: { readonly baseMs: number; readonly maxMs: number; readonly windowMs: number };
    /** An endpoint failing without a success this long is paused (and the super admins emailed); null: never. */
    readonly pauseAfterMs: number | null;
    /** Whether endpoint URLs may be plain http (local receivers); https otherwise. */
    readonly allowHttp: boolean;
    /** Addresses and CIDR ranges webhooks may call although loopback, private or link-local. */
    readonly allowedNetworks: readonly string[];
    /** The DNS servers webhook host names are asked of (`ip` or `ip:port`); empty: the system's (/etc/resolv.conf). */
    readonly dnsServers: readonly string[];
  };
  /** HTTP caching of the public catalog (src/http-cache/, docs/caching.md). */
  readonly httpCache: {
    /** Seconds: how long a shared cache may serve a response (s-maxage), and a browser (max-age) before revalidating. */
    readonly sMaxAge: number;
    readonly maxAge: number;
    /** Seconds a shared cache may serve a stale response while it refetches, and while the service fails. */
    readonly staleWhileRevalidate: number;
    readonly staleIfError: number;
    /** The caches told to drop what changed: each gets a POST with the surrogate keys and the token. */
    readonly purgeUrls: readonly string[];
    readonly purgeToken: string | null;
    readonly purgeTimeoutMs: number;
    /** Retries while a cache is down: exponential from `baseMs` up to `maxMs`, for a day. */
    readonly purgeRetry: { readonly baseMs: number; readonly maxMs: number; readonly windowMs: number };
    /** How long the storefront keeps a page for visitors without cookies (0: not at all). */
    readonly storefrontPageCacheMs: number;
  };
  /** log2 of scrypt's cost parameter N. Lowered only in tests. */
  readonly passwordHashCost: number;
  readonly rateLimits: Readonly<Record<RateLimitName, RateLimitRule>>;
  /** How long a staff invitation link stays valid, in seconds. */
  readonly staffInvitationTtlSeconds: number;
  /** Most active addresses one account may keep. */
  readonly maxAddressesPerAccount: number;
  /** Most lines one cart may hold (a checkout locks every line's stock). */
  readonly maxCartLines: number;
  /** Uploads the built-in image host receives at once per process (each holds up to 5 MB); one more is answered 503. */
  readonly maxUploadsInFlight: number;
  /** Housekeeping of what accounts and traffic leave behind; each age in seconds, `null` keeps forever. */
  readonly retention: {
    /** An upload no review or product points at is deleted once it is this old. */
    readonly unreferencedUploads: number | null;
    /** Upload tokens are deleted this long after they expire. */
    readonly expiredUploadTokens: number | null;
    /** Delivered outbox messages are deleted this long after delivery. */
    readonly deliveredEmails: number | null;
    /** Events and their finished deliveries (sent, given up, cancelled) are deleted once this old. */
    readonly events: number | null;
    /** How often the pruner runs, in milliseconds (`null`: never), and how many rows it deletes per statement. */
    readonly intervalMs: number | null;
    readonly batchSize: number;
  };
  readonly commerce: {
    /** The shop's name, as the storefront shows it (titles, Open Graph). */
    readonly storeName: string;
    /** The home page's headline and the sentences under it, which also describe the shop to search engines. */
    readonly storeHeadline: string;
    readonly storeIntroduction: string;
    readonly currency: string;
    /** Flat shipping charge and the subtotal from which shipping is free, as decimal strings. */
    readonly shippingFlat: string;
    readonly freeShippingFrom: string;
    /** Percentage applied to (subtotal - discount), e.g. "8.25". */
    readonly taxRate: string;
    /**
     * The reorder level the console offers for a new stock record (`null`: none). The API keeps
     * the specification's rule: a record without a level never shows as low stock.
     */
    readonly defaultReorderLevel: number | null;
  };
}

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const RATE_LIMIT_DEFAULTS: Record<RateLimitName, string> = {
  LOGIN: '10/15m',
  LOGIN_IP: '100/15m',
  REGISTER: '20/1h',
  PASSWORD_RESET: '5/15m',
  EMAIL_CHANGE: '5/15m',
  CHECKOUT: '30/1m',
  VERIFY_RESEND: '3/15m',
  UPLOAD: '60/1h',
};

export function loadConfig(env: Env = process.env): Config {
  const read = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };

  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (!/^-?\d+$/.test(raw)) throw new ConfigError(name, `must be an integer, got "${raw}"`);
    const value = Number(raw);
    if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
    return value;
  };

  /** Words the shop shows its customers: one line of at most `max` characters, no control characters. */
  const shopText = (name: string, fallback: string, max: number): string => {
    const value = read(name) ?? fallback;
    if (value.length > max) throw new ConfigError(name, `must be at most ${max} characters`);
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(value)) throw new ConfigError(name, 'must be one line, without control characters');
    return value;
  };

  const bool = (name: string, fallback: boolean): boolean => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
    if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
    throw new ConfigError(name, `must be true or false, got "${raw}"`);
  };

  const url = (name: string, fallback: string | null, protocols: readonly string[]): string | null => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      throw new ConfigError(name, 'must be a valid URL');
    }
    if (!protocols.includes(parsed.protocol)) {
      throw new ConfigError(name, `must use one of ${protocols.join(', ')}`);
    }
    return raw.replace(/\/+$/, '');
  };

  const money = (name: string, fallback: string): string => {
    const raw = read(name) ?? fallback;
    if (!/^\d{1,10}(\.\d{1,2})?$/.test(raw)) throw new ConfigError(name, `must be a decimal amount like 10.00, got "${raw}"`);
    return raw;
  };

  /** `30s`, `15m`, `24h`, `30d`, or `0` for never; in seconds. */
  const duration = (name: string, fallback: string): number | null => {
    const raw = read(name) ?? fallback;
    if (raw === '0') return null;
    const match = /^(\d+)([smhd])$/.exec(raw);
    if (!match || Number(match[1]) < 1) throw new ConfigError(name, `must look like "30s", "15m", "24h" or "30d", or be 0, got "${raw}"`);
    return Number(match[1]) * WINDOW_UNITS[match[2]!]!;
  };

  const nodeEnv = read('NODE_ENV') ?? 'development';
  if (!['production', 'development', 'test'].includes(nodeEnv)) {
    throw new ConfigError('NODE_ENV', 'must be production, development or test');
  }

  const port = int('PORT', 3000, 0, 65535);
  const host = read('HOST') ?? '127.0.0.1';
  const storeName = shopText('STORE_NAME', 'Northwind Supply', 100);
  const trustProxy = parseTrustProxy(read('TRUST_PROXY') ?? (nodeEnv === 'production' ? PRIVATE_NETWORKS : 'false'));

  const imagekitKeys = ['IMAGEKIT_PUBLIC_KEY', 'IMAGEKIT_PRIVATE_KEY', 'IMAGEKIT_URL_ENDPOINT'].map(read);
  const imagekitSet = imagekitKeys.filter((v) => v !== undefined).length;
  if (imagekitSet !== 0 && imagekitSet !== 3) {
    throw new ConfigError('IMAGEKIT_PUBLIC_KEY', 'IMAGEKIT_PRIVATE_KEY and IMAGEKIT_URL_ENDPOINT must be set together');
  }
  const imagekitUrl = url('IMAGEKIT_URL_ENDPOINT', null, ['https:', 'http:']);

  const rateLimits = Object.fromEntries(
    (Object.keys(RATE_LIMIT_DEFAULTS) as RateLimitName[]).map((name) => {
      const variable = `RATE_LIMIT_${name}`;
      return [name, parseRateLimit(variable, read(variable) ?? RATE_LIMIT_DEFAULTS[name])];
    }),
  ) as Record<RateLimitName, RateLimitRule>;

  const config: Config = {
    env: nodeEnv as Config['env'],
    port,
    host,
    trustProxy,
    databaseUrl: url('DATABASE_URL', null, ['postgres:', 'postgresql:']),
    dbPoolSize: int('DB_POOL_SIZE', 20, 1, 500),
    dbQueryTimeoutMs: int('DB_QUERY_TIMEOUT_MS', 30_000, 1_000, 3_600_000),
    migrationDatabaseUrl: url('MIGRATION_DATABASE_URL', null, ['postgres:', 'postgresql:']),
    migrateOnStart: bool('MIGRATE_ON_START', true),
    migrationLockTimeoutMs: int('MIGRATION_LOCK_TIMEOUT_MS', 5_000, 100, 600_000),
    dbNamedStatements: bool('DB_NAMED_STATEMENTS', true),
    dataDir: path.resolve(read('DATA_DIR') ?? './.data'),
    consoleDir: path.resolve(read('CONSOLE_DIR') ?? './packages/console/dist'),
    storefrontDir: path.resolve(read('STOREFRONT_DIR') ?? './packages/storefront/build'),
    publicBaseUrl: url('PUBLIC_BASE_URL', `http://localhost:${port}`, ['http:', 'https:']) as string,
    publicBaseUrlSet: read('PUBLIC_BASE_URL') !== undefined,
    corsOrigins: commaList(read('CORS_ORIGINS') ?? '').map((origin) => {
      try {
        return new URL(origin).origin;
      } catch {
        throw new ConfigError('CORS_ORIGINS', `has an invalid origin "${origin}"`);
      }
    }),
    // A shop whose address is https sends its cookies only over https unless told otherwise.
    cookieSecure: bool('COOKIE_SECURE', /^https:/i.test(read('PUBLIC_BASE_URL') ?? '')),
    sessionTtlDays: int('SESSION_TTL_DAYS', 30, 1, 3650),
    sessionIdleDays: int('SESSION_IDLE_DAYS', 7, 1, 3650),
    // Staff (admins, super admins) sign in again more often: their session is the shop's keys.
    staffSessionTtlHours: int('STAFF_SESSION_TTL_HOURS', 24, 1, 87_600),
    staffSessionIdleHours: int('STAFF_SESSION_IDLE_HOURS', 8, 1, 87_600),
    imagekit: imagekitSet === 3 ? { publicKey: imagekitKeys[0]!, privateKey: imagekitKeys[1]!, urlEndpoint: imagekitUrl! } : null,
    mediaSigningKey: (() => {
      const key = read('MEDIA_SIGNING_KEY');
      if (key !== undefined && key.length < 32) throw new ConfigError('MEDIA_SIGNING_KEY', 'must be at least 32 characters');
      return key ?? null;
    })(),
    smtpUrl: url('SMTP_URL', null, ['smtp:', 'smtps:']),
    // Mail comes from the shop by name (a quoted display name: the name may hold commas or dots).
    mailFrom: read('MAIL_FROM') ?? `"${storeName.replace(/[\r\n\t]+/g, ' ').replace(/["\\]/g, '')}" <no-reply@store.local>`,
    logLevel: read('LOG_LEVEL') ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    logFormat: (() => {
      const format = read('LOG_FORMAT') ?? (nodeEnv === 'development' ? 'pretty' : 'json');
      if (format !== 'json' && format !== 'pretty') throw new ConfigError('LOG_FORMAT', `must be json or pretty, got "${format}"`);
      return format;
    })(),
    schemaCompile: (() => {
      const when = read('SCHEMA_COMPILE') ?? (nodeEnv === 'production' ? 'start' : 'first-use');
      if (when !== 'start' && when !== 'first-use') throw new ConfigError('SCHEMA_COMPILE', `must be start or first-use, got "${when}"`);
      return when;
    })(),
    metrics: {
      host: read('METRICS_HOST') ?? '127.0.0.1',
      port: ((value) => (value === 0 ? null : value))(int('METRICS_PORT', 9464, 0, 65535)),
      workerPort: ((value) => (value === 0 ? null : value))(int('WORKER_METRICS_PORT', 9463, 0, 65535)),
      token: (() => {
        const token = read('METRICS_TOKEN');
        if (token !== undefined && token.length < 16) throw new ConfigError('METRICS_TOKEN', 'must be at least 16 characters');
        return token ?? null;
      })(),
    },
    passwordHashCost: int('PASSWORD_HASH_COST', 15, 10, 20),
    shutdownGraceMs: int('SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    shutdownDelayMs: int('SHUTDOWN_DELAY_MS', 0, 0, 60_000),
    requestTimeoutMs: ((ms) => {
      // Milliseconds: a value meant as seconds (120) would refuse every upload.
      if (ms > 0 && ms < 1000) throw new ConfigError('REQUEST_TIMEOUT_MS', `must be 0 (no limit) or at least 1000 ms, got ${ms}`);
      return ms;
    })(int('REQUEST_TIMEOUT_MS', 120_000, 0, 3_600_000)),
    emailPollIntervalMs: int('EMAIL_POLL_INTERVAL_MS', 1000, 10, 600_000),
    emailLeaseMs: int('EMAIL_LEASE_MS', 60_000, 1000, 3_600_000),
    emailWorker: (() => {
      const mode = read('EMAIL_WORKER') ?? 'in-process';
      if (mode !== 'in-process' && mode !== 'off') throw new ConfigError('EMAIL_WORKER', `must be in-process or off, got "${mode}"`);
      return mode;
    })(),
    events: {
      worker: (() => {
        const mode = read('EVENT_WORKER') ?? 'in-process';
        if (mode !== 'in-process' && mode !== 'off') throw new ConfigError('EVENT_WORKER', `must be in-process or off, got "${mode}"`);
        return mode;
      })(),
      pollIntervalMs: int('EVENT_POLL_INTERVAL_MS', 500, 10, 600_000),
      leaseMs: int('EVENT_LEASE_MS', 60_000, 1000, 3_600_000),
      yieldAtRequests: int('EVENT_YIELD_AT_REQUESTS', 16, 0, 100_000),
    },
    webhooks: {
      timeoutMs: int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
      retry: {
        baseMs: int('WEBHOOK_RETRY_BASE_MS', 10_000, 10, 3_600_000),
        maxMs: int('WEBHOOK_RETRY_MAX_MS', 12 * 3_600_000, 10, 7 * 86_400_000),
        windowMs: (duration('WEBHOOK_RETRY_FOR', '3d') ?? 0) * 1000,
      },
      pauseAfterMs: ((seconds) => (seconds === null ? null : seconds * 1000))(duration('WEBHOOK_PAUSE_AFTER', '1d')),
      allowHttp: bool('WEBHOOK_ALLOW_HTTP', false),
      allowedNetworks: parseNetworks('WEBHOOK_ALLOWED_NETWORKS', read('WEBHOOK_ALLOWED_NETWORKS') ?? ''),
      dnsServers: parseDnsServers('WEBHOOK_DNS_SERVERS', read('WEBHOOK_DNS_SERVERS') ?? ''),
    },
    httpCache: (() => {
      const purgeUrls = commaList(read('CACHE_PURGE_URLS') ?? '').map((entry) => {
        let parsed: URL;
        try {
          parsed = new URL(entry);
        } catch {
          throw new ConfigError('CACHE_PURGE_URLS', `has an invalid URL "${entry}"`);
        }
        if (!['http:', 'https:'].includes(parsed.protocol))
          throw new ConfigError('CACHE_PURGE_URLS', `must list http(s) URLs, got "${entry}"`);
        return parsed.toString();
      });
      const purgeToken = read('CACHE_PURGE_TOKEN') ?? null;
      if (purgeToken !== null && !/^[A-Za-z0-9._~-]{16,200}$/.test(purgeToken))
        throw new ConfigError('CACHE_PURGE_TOKEN', 'must be 16 to 200 letters, digits or ._~-');
      if (purgeUrls.length > 0 && purgeToken === null) throw new ConfigError('CACHE_PURGE_TOKEN', 'must be set with CACHE_PURGE_URLS');
      const retry = {
        baseMs: int('CACHE_PURGE_RETRY_BASE_MS', 1000, 10, 3_600_000),
        maxMs: int('CACHE_PURGE_RETRY_MAX_MS', 30_000, 10, 3_600_000),
      };
      if (retry.maxMs < retry.baseMs) throw new ConfigError('CACHE_PURGE_RETRY_MAX_MS', 'must not be below CACHE_PURGE_RETRY_BASE_MS');
      return {
        sMaxAge: duration('CACHE_S_MAXAGE', '5m') ?? 0,
        maxAge: duration('CACHE_MAX_AGE', '0') ?? 0,
        staleWhileRevalidate: duration('CACHE_STALE_WHILE_REVALIDATE', '30s') ?? 0,
        staleIfError: duration('CACHE_STALE_IF_ERROR', '1d') ?? 0,
        purgeUrls: [...new Set(purgeUrls)],
        purgeToken,
        purgeTimeoutMs: int('CACHE_PURGE_TIMEOUT_MS', 5000, 100, 120_000),
        purgeRetry: { ...retry, windowMs: 86_400_000 },
        // A cache in front that is purged would store a page up to this old after a purge: off there by default.
        storefrontPageCacheMs: int('STOREFRONT_PAGE_CACHE_MS', purgeUrls.length > 0 ? 0 : 5000, 0, 60_000),
      };
    })(),
    rateLimits,
    maxAddressesPerAccount: int('MAX_ADDRESSES_PER_ACCOUNT', 50, 1, 10_000),
    maxCartLines: int('MAX_CART_LINES', 100, 1, 1000),
    maxUploadsInFlight: int('MAX_UPLOADS_IN_FLIGHT', 16, 1, 1000),
    staffInvitationTtlSeconds: ((seconds) => {
      if (seconds === null)
        throw new ConfigError('STAFF_INVITATION_TTL', 'must be a duration like "7d"; 0 would make every invitation expire at once');
      return seconds;
    })(duration('STAFF_INVITATION_TTL', '7d')),
    retention: {
      unreferencedUploads: duration('RETAIN_UNREFERENCED_UPLOADS', '24h'),
      expiredUploadTokens: duration('RETAIN_EXPIRED_UPLOAD_TOKENS', '1d'),
      deliveredEmails: duration('RETAIN_DELIVERED_EMAILS', '30d'),
      events: duration('RETAIN_EVENTS', '30d'),
      intervalMs: ((seconds) => (seconds === null ? null : seconds * 1000))(duration('PRUNE_INTERVAL', '10m')),
      batchSize: int('PRUNE_BATCH_SIZE', 500, 1, 100_000),
    },
    commerce: {
      storeName,
      storeHeadline: shopText('STORE_HEADLINE', 'Good gear for every day', 120),
      storeIntroduction: shopText(
        'STORE_INTRODUCTION',
        'Clothing, footwear and accessories that are made to last. Free shipping on bigger orders, easy returns.',
        300,
      ),
      currency: (() => {
        const currency = read('CURRENCY') ?? 'USD';
        if (!/^[A-Z]{3}$/.test(currency)) throw new ConfigError('CURRENCY', `must be an ISO 4217 code like USD, got "${currency}"`);
        return currency;
      })(),
      shippingFlat: money('SHIPPING_FLAT', '10.00'),
      freeShippingFrom: money('FREE_SHIPPING_FROM', '500.00'),
      taxRate: (() => {
        const rate = read('TAX_RATE') ?? '0';
        if (!/^\d{1,2}(\.\d{1,4})?$|^100$/.test(rate)) throw new ConfigError('TAX_RATE', `must be a percentage like 8.25, got "${rate}"`);
        return rate;
      })(),
      defaultReorderLevel: read('DEFAULT_REORDER_LEVEL')?.toLowerCase() === 'none' ? null : int('DEFAULT_REORDER_LEVEL', 5, 0, 1_000_000),
    },
  };
  if (config.shutdownDelayMs > 0 && config.shutdownDelayMs >= config.shutdownGraceMs) {
    throw new ConfigError(
      'SHUTDOWN_DELAY_MS',
      `must be below SHUTDOWN_GRACE_MS (${config.shutdownGraceMs}): the delay is part of the grace period`,
    );
  }
  if (config.events.leaseMs < 2 * config.webhooks.timeoutMs) {
    throw new ConfigError(
      'EVENT_LEASE_MS',
      `must be at least twice WEBHOOK_TIMEOUT_MS (${config.webhooks.timeoutMs}), so a claim outlives its attempts`,
    );
  }
  if (config.httpCache.purgeUrls.length > 0 && config.events.leaseMs < 2 * config.httpCache.purgeTimeoutMs) {
    throw new ConfigError('EVENT_LEASE_MS', `must be at least twice CACHE_PURGE_TIMEOUT_MS (${config.httpCache.purgeTimeoutMs})`);
  }
  if (config.webhooks.retry.maxMs < config.webhooks.retry.baseMs) {
    throw new ConfigError('WEBHOOK_RETRY_MAX_MS', 'must not be below WEBHOOK_RETRY_BASE_MS');
  }
  if (config.migrationDatabaseUrl !== null && config.databaseUrl === null) {
    throw new ConfigError('MIGRATION_DATABASE_URL', 'needs DATABASE_URL: the embedded database is migrated directly');
  }
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(config.logLevel)) {
    throw new ConfigError('LOG_LEVEL', 'must be one of fatal, error, warn, info, debug, trace, silent');
  }
  return Object.freeze(config);
}

const WINDOW_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** Load balancers in a VPC or cluster sit on private addresses; a client cannot connect from one over the internet. */
const PRIVATE_NETWORKS = 'loopback,linklocal,uniquelocal';
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** `false`, a hop count (`1`), or a comma-separated list of addresses, CIDR ranges and named ranges. */
function parseTrustProxy(raw: string): number | string | false {
  if (['false', 'none', '0'].includes(raw.toLowerCase())) return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 10) throw new ConfigError('TRUST_PROXY', `must be at most 10 hops, got ${hops}`);
    return hops;
  }
  const entries = raw.split(',').map((entry) => entry.trim().toLowerCase());
  for (const entry of entries) {
    const [address = '', bits, ...rest] = entry.split('/');
    const family = isIP(address);
    const validBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (!NAMED_RANGES.has(entry) && (family === 0 || !validBits || rest.length > 0)) {
      throw new ConfigError(
        'TRUST_PROXY',
        `must be false, a hop count, or addresses and CIDR ranges (or loopback, linklocal, uniquelocal), got "${entry}"`,
      );
    }
  }
  return entries.join(',');
}

/** The non-empty entries of a comma-separated list, trimmed. */
const commaList = (raw: string) =>
  raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

/** Comma-separated IP addresses and CIDR ranges (`127.0.0.1`, `10.0.0.0/8`, `::1`). */
function parseNetworks(variable: string, raw: string): string[] {
  const entries = commaList(raw);
  for (const entry of entries) {
    const [address = '', bits, ...rest] = entry.split('/');
    const family = isIP(address);
    const validBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (family === 0 || !validBits || rest.length > 0)
      throw new ConfigError(variable, `must list IP addresses or CIDR ranges, got "${entry}"`);
  }
  return entries;
}

/** DNS servers as `1.1.1.1`, `10.0.0.2:5353` or `[2001:db8::1]:53`, comma-separated. */
function parseDnsServers(variable: string, raw: string): string[] {
  const entries = commaList(raw);
  for (const entry of entries) {
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    const [address, port] = bracketed ? [bracketed[1]!, bracketed[2]] : isIP(entry) ? [entry, undefined] : entry.split(':');
    const validPort = port === undefined || (/^\d+$/.test(port) && Number(port) >= 1 && Number(port) <= 65_535);
    if (!address || isIP(address) === 0 || !validPort) {
      throw new ConfigError(variable, `must list IP addresses, each with an optional port (10.0.0.2:53), got "${entry}"`);
    }
  }
  return entries;
}

/** `10/15m` -> 10 per 900 s; `0` switches the limit off. */
export function parseRateLimit(variable: string, raw: string): RateLimitRule {
  if (raw === '0') return null;
  const match = /^(\d+)\/(\d+)([smhd])$/.exec(raw);
  if (!match) throw new ConfigError(variable, `must look like "10/15m" or be 0, got "${raw}"`);
  const count = Number(match[1]);
  const windowSeconds = Number(match[2]) * WINDOW_UNITS[match[3]!]!;
  if (count < 1 || windowSeconds < 1) throw new ConfigError(variable, 'needs a positive count and window');
  return { count, windowSeconds };
}
