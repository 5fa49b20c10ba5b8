import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from 'pino';
import secureJson from 'secure-json-parse';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { schemaIsCurrent, type SchemaGate } from './db/schema-state.js';
import { addressRoutes } from './addresses/routes.js';
import { createAddressService } from './addresses/service.js';
import { registerGuard, type Access } from './auth/guard.js';
import { authRoutes } from './auth/routes.js';
import { createAuthService } from './auth/service.js';
import { registerConsole } from './console/routes.js';
import { registerStorefront } from './storefront/routes.js';
import { followMediaEndpoint } from './media-endpoint.js';
import { mediaUrlEndpoint } from './lib/media.js';
import { registerDocs } from './openapi/docs.js';
import { healthRoutes } from './health/routes.js';
import { systemClock, type Clock } from './lib/clock.js';
import { createLogger } from './lib/logger.js';
import type { Metrics } from './metrics/metrics.js';
import { clientErrorHandler, registerErrorHandling, replyWithError } from './lib/error-handler.js';
import { securityHeaders } from './lib/security-headers.js';
import { imageToolsProblem } from './media/clean-image.js';
import { detailLevel } from './lib/detail-log-level.js';
import { registerProtocolChecks, serverOptions } from './lib/http-protocol.js';
import { shuttingDown, waitingForSchema } from './lib/errors.js';
import { createRateLimiter } from './rate-limits/limiter.js';
import { ErrorEnvelope } from './lib/schemas.js';
import { responseSerializers, validatorOnFirstUse } from './lib/schema-compilers.js';
import { validatorCompiler, validatorCompilerUnchecked } from './lib/validation.js';
import { settingsRoutes } from './settings/routes.js';
import { staffInvitationRoutes } from './staff-invitations/routes.js';
import { createStaffInvitations } from './staff-invitations/service.js';
import { userRoutes } from './users/routes.js';
import { createCatalogAdminService } from './catalog/admin-service.js';
import { catalogAdminRoutes } from './catalog/admin-routes.js';
import { catalogImportRoutes } from './catalog/import-routes.js';
import { createCatalogImport } from './catalog/import-service.js';
import { createCategoryService } from './catalog/categories-service.js';
import { catalogPublicRoutes } from './catalog/public-routes.js';
import { createStorefrontService, storeSettings } from './catalog/storefront-service.js';
import { inventoryRoutes } from './inventory/routes.js';
import { createInventoryService } from './inventory/service.js';
import { cartRoutes } from './cart/routes.js';
import { createCartService } from './cart/service.js';
import { couponRoutes } from './coupons/routes.js';
import { createCouponService } from './coupons/service.js';
import { createCheckout } from './orders/checkout.js';
import { createQuote } from './orders/quote.js';
import { orderRoutes } from './orders/routes.js';
import { createOrderService } from './orders/service.js';
import { adminSearchRoutes } from './admin-search/routes.js';
import { createAdminSearch } from './admin-search/service.js';
import { adminUserRoutes } from './admin-users/routes.js';
import { createAdminUserService } from './admin-users/service.js';
import { analyticsRoutes } from './analytics/routes.js';
import { createAnalyticsService } from './analytics/service.js';
import { auditRoutes } from './audit/routes.js';
import { createAuditService } from './audit/service.js';
import { expenseRoutes } from './expenses/routes.js';
import { createExpenseService } from './expenses/service.js';
import { createUserService } from './users/service.js';
import { mediaHostRoutes } from './media/host-routes.js';
import { uploadRoutes } from './media/routes.js';
import { createMediaService } from './media/service.js';
import { reviewAdminRoutes } from './reviews/admin-routes.js';
import { createReviewModeration } from './reviews/moderation.js';
import { reviewRoutes } from './reviews/routes.js';
import { createReviewService } from './reviews/service.js';
import { createEmailChangeService } from './users/email-change.js';
import { createRecoveryService } from './auth/recovery-service.js';
import { createMailTransport } from './email/transport.js';
import { createEmailWorker, type EmailWorker } from './email/worker.js';
import { createPruner, type Pruner } from './housekeeping/pruner.js';
import { createDispatch } from './event-dispatch.js';
import { countRequestsInFlight } from './lib/requests-in-flight.js';
import { createHttpCache, registerCacheHeaders, sharedCachePolicy } from './http-cache/policy.js';
import type { EventDispatcher } from './events/dispatcher.js';
import { createAddressPolicy } from './webhooks/address-policy.js';
import { createHostResolver } from './webhooks/host-resolver.js';
import { webhookRoutes } from './webhooks/routes.js';
import { createWebhookService } from './webhooks/service.js';

declare module 'fastify' {
  interface FastifyInstance {
    emailWorker: EmailWorker;
    eventDispatcher: EventDispatcher;
    pruner: Pruner;
    /** Every route with its declared access, recorded as it registers (the role-matrix test walks it). */
    routeTable: RouteEntry[];
  }
}

export interface RouteEntry {
  method: string;
  url: string;
  access: Access;
}

export interface AppDeps {
  config: Config;
  db: Db;
  clock?: Clock;
  /** The process's logger (src/main.ts); one is made from the config when absent. */
  log?: Logger;
  /** Prometheus metrics (src/main.ts serves them on their own listener); none when absent. */
  metrics?: Metrics;
  /** Whether the database's schema matches the code (src/db/connect.ts); always, when absent. */
  schema?: SchemaGate;
  /** Whether the process has been told to stop (src/main.ts): readiness then answers 503. Never, when absent. */
  stopping?: () => boolean;
}

/** A caller's `x-request-id`, logged when it is sane. */
const CORRELATION_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Builds the HTTP application and wires every service to exactly what it needs. */
export async function buildApp({
  config,
  db,
  clock = systemClock,
  log,
  metrics,
  schema = schemaIsCurrent,
  stopping = () => false,
}: AppDeps): Promise<FastifyInstance> {
  const deferCompiles = config.schemaCompile === 'first-use';
  const app = Fastify({
    loggerInstance: (log ?? createLogger(config)) as FastifyBaseLogger,
    bodyLimit: 1024 * 1024,
    // Long path IDs must reach the handlers (and be a plain 404), not stop at the router with a bare 414.
    routerOptions: { maxParamLength: 2048 },
    // A hop count as proxy-addr reads one (Fastify's types take only its function form): the socket and the next n - 1 hops.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    // The storefront's API calls enter in-process (inject) as part of a page request, which is logged itself: their own
    // request lines are detail, shown at LOG_LEVEL=debug; their warnings and errors always are.
    childLoggerFactory: (logger, bindings, options, raw) =>
      logger.child(bindings, '_lightMyRequest' in raw ? { ...options, level: detailLevel(logger.level) } : options),
    // The request ID is always ours: it is written to the audit log, so a caller must not choose it.
    // A caller's own ID is kept in the log as correlation_id (below), so traces still join up.
    genReqId: () => randomUUID(),
    // Errors the router raises before any route runs (a malformed URL, an over-long path segment) wear the envelope too,
    // and, as no request hook runs for them, get here what every other answer gets from the hooks: the security
    // headers and a Cache-Control (an error is never stored).
    frameworkErrors: (error, request, reply) =>
      securityHeaders(request.raw, reply.raw, () => void replyWithError(error, request, reply.header('cache-control', 'no-store'))),
    clientErrorHandler,
    http: serverOptions(config.requestTimeoutMs),
    requestTimeout: config.requestTimeoutMs,
    return503OnClosing: false,
    ajv: { customOptions: { removeAdditional: false } },
    schemaController: { compilersFactory: { buildSerializer: responseSerializers({ deferred: deferCompiles }) } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    if (route.config?.catchAll) return;
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD' && method !== 'OPTIONS')
        routeTable.push({ method: String(method), url: route.url, access: route.config?.access ?? 'user' });
    }
  });

  metrics?.instrument(app);
  app.setValidatorCompiler(deferCompiles ? validatorOnFirstUse(validatorCompilerUnchecked) : validatorCompiler);
  app.addSchema(ErrorEnvelope);

  // JSON bodies: prototype-poisoning safe; an empty body is "no body" so bodiless POSTs work with the header set.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      const error = Object.assign(new Error('Invalid JSON'), { statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' });
      done(error, undefined);
    }
  });

  // First, so that a request refused by a later hook is counted too (the dispatcher yields to the count).
  const requestsInFlight = countRequestsInFlight(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    const correlation = request.headers['x-request-id'];
    if (typeof correlation === 'string' && CORRELATION_ID.test(correlation))
      request.log = request.log.child({ correlation_id: correlation });
  });

  // Closing (SIGTERM): a request that arrives on a kept-alive connection is told to go elsewhere, in the
  // envelope with Retry-After, and its connection is closed (Fastify's own 503 would carry neither).
  // An instance whose database schema is behind its code answers only the probes until it is migrated.
  let closing = false;
  app.addHook('preClose', async () => void (closing = true));
  app.addHook('onRequest', async (request, reply) => {
    if (closing) {
      reply.header('connection', 'close');
      throw shuttingDown();
    }
    if (schema.pending() !== null && !request.routeOptions.url?.startsWith('/health')) throw waitingForSchema();
  });
  /** Background work starts when the app is ready and the schema matches the code (at once, normally), unless it is closing by then. */
  const startWhenServing = (start: () => void | Promise<void>) =>
    app.addHook('onReady', async () => {
      if (schema.pending() === null) return start();
      void schema.current.then(
        () =>
          Promise.resolve(closing ? undefined : start()).catch((error: unknown) =>
            app.log.error({ err: error }, 'background work failed to start'),
          ),
        () => {},
      );
    });

  registerErrorHandling(app, routeTable);
  app.addHook('onRequest', (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined)),
  );
  registerProtocolChecks(app);
  await app.register(cors, {
    origin: config.corsOrigins.length > 0 ? [...config.corsOrigins] : false,
    credentials: true,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['content-type', 'x-csrf-token', 'idempotency-key', 'x-request-id'],
    exposedHeaders: ['x-request-id', 'retry-after', 'idempotent-replayed'],
  });
  await app.register(cookie);
  registerGuard(app, { db, config, clock });
  registerCacheHeaders(app, config.httpCache, config.corsOrigins.length > 0);
  await registerDocs(app);
  const httpCache = createHttpCache({ db });
  app.addHook('onReady', async () => httpCache.setRelease(app.swagger()));

  const limiter = createRateLimiter(config.rateLimits, () => clock.now());
  const auth = createAuthService({ db, clock, limiter, config });
  const users = createUserService({ db, clock, limiter, config });
  const recovery = createRecoveryService({ db, clock, limiter, config });
  const emailChange = createEmailChangeService({ db, clock, limiter });
  const addresses = createAddressService({ db, clock, maxAddresses: config.maxAddressesPerAccount });
  const media = createMediaService({ db, config, clock, limiter });
  const storefront = createStorefrontService({ db });
  const catalog = createCatalogAdminService({ db, clock, media });
  const categories = createCategoryService({ db, clock });
  const imports = createCatalogImport({ db, clock });
  const inventory = createInventoryService({ db, clock });
  const cart = createCartService({ db, clock, config });
  const coupons = createCouponService({ db, clock });
  const checkout = createCheckout({ db, clock, limiter, config });
  const quote = createQuote({ db, clock, config, limiter });
  const orders = createOrderService({ db, clock });
  const adminUsers = createAdminUserService({ db, clock });
  const analytics = createAnalyticsService({ db, clock, config });
  const audit = createAuditService({ db });
  const expenses = createExpenseService({ db, clock });
  const reviews = createReviewService({ db, clock, media });
  const moderation = createReviewModeration({ db, clock });
  const webhooks = createWebhookService({
    db,
    clock,
    allowHttp: config.webhooks.allowHttp,
    policy: createAddressPolicy(config.webhooks.allowedNetworks),
    resolve: createHostResolver({ timeoutMs: config.webhooks.timeoutMs, servers: config.webhooks.dnsServers }),
  });
  const search = createAdminSearch({ orders, catalog, adminUsers });
  const invitations = createStaffInvitations({ db, clock, config, auth });

  // The outbox worker lives and dies with the app: started when it is ready, drained on close.
  const transport = createMailTransport(config, clock);
  const emailWorker = createEmailWorker({
    db,
    transport,
    clock,
    log: app.log,
    mailFrom: config.mailFrom,
    publicBaseUrl: config.publicBaseUrl,
    pollIntervalMs: config.emailPollIntervalMs,
    leaseMs: config.emailLeaseMs,
  });
  app.decorate('emailWorker', emailWorker);
  // Uploaded images stored under another PUBLIC_BASE_URL move to this one before anything is served (a failure is logged, not fatal).
  if (!config.imagekit) {
    const endpoint = mediaUrlEndpoint(config);
    startWhenServing(() =>
      followMediaEndpoint(db, endpoint, app.log).catch((error: unknown) => app.log.error({ err: error }, 'moving uploaded images failed')),
    );
    // Said at start, not at a customer's first photo: the image host encodes every upload with sharp.
    startWhenServing(() => {
      void imageToolsProblem().then((problem) => {
        if (problem)
          app.log.error({ problem }, 'sharp cannot be loaded: the built-in image host will refuse every upload (run npm ci again)');
      });
    });
  }
  const pruner = createPruner({ db, clock, log: app.log, retention: config.retention });
  app.decorate('pruner', pruner);
  startWhenServing(() => pruner.start());
  app.addHook('onClose', async () => pruner.stop());
  // EMAIL_WORKER=off leaves delivery to `npm run worker` processes (the worker still exists for tests to drive).
  if (config.emailWorker === 'in-process') startWhenServing(() => emailWorker.start());
  app.addHook('onClose', async () => {
    await emailWorker.stop();
    transport.close();
  });

  // The event dispatcher (webhooks) likewise: EVENT_WORKER=off leaves it to `npm run worker`.
  const { yieldAtRequests } = config.events;
  const dispatch = createDispatch({
    db,
    clock,
    log: app.log,
    config,
    registry: metrics?.registry ?? null,
    ...(yieldAtRequests > 0 ? { busy: () => requestsInFlight() >= yieldAtRequests } : {}),
  });
  app.decorate('eventDispatcher', dispatch.dispatcher);
  if (config.events.worker === 'in-process') startWhenServing(() => dispatch.start());
  app.addHook('onClose', () => dispatch.close());

  await app.register(healthRoutes({ db, schema, stopping }));
  await registerConsole(app, config.consoleDir);
  await registerStorefront(app, {
    dir: config.storefrontDir,
    publicBaseUrl: config.publicBaseUrl,
    sharedCache: config.httpCache.purgeUrls.length > 0,
    pageCacheMs: config.httpCache.storefrontPageCacheMs,
    catalogTag: () => httpCache.currentTag(),
    cachePolicy: sharedCachePolicy(config.httpCache),
    maxUploadsInFlight: config.maxUploadsInFlight,
  });
  // With ImageKit configured, uploads and files live there; otherwise the service is its own image host.
  if (!config.imagekit) await app.register(mediaHostRoutes({ media, maxUploadsInFlight: config.maxUploadsInFlight }));
  await app.register(
    async (api) => {
      await api.register(authRoutes({ auth, recovery, config }));
      await api.register(userRoutes({ users, emailChange }));
      await api.register(addressRoutes({ addresses }));
      await api.register(catalogPublicRoutes({ storefront, categories, settings: storeSettings(config), httpCache }));
      await api.register(catalogAdminRoutes({ catalog, categories }));
      await api.register(catalogImportRoutes({ imports }));
      await api.register(inventoryRoutes({ inventory }));
      await api.register(cartRoutes({ cart }));
      await api.register(couponRoutes({ coupons }));
      await api.register(orderRoutes({ checkout, orders, quote }));
      await api.register(adminUserRoutes({ adminUsers }));
      await api.register(analyticsRoutes({ analytics }));
      await api.register(auditRoutes({ audit }));
      await api.register(expenseRoutes({ expenses }));
      await api.register(uploadRoutes({ media }));
      await api.register(reviewRoutes({ reviews, httpCache }));
      await api.register(reviewAdminRoutes({ moderation }));
      await api.register(webhookRoutes({ webhooks }));
      await api.register(settingsRoutes({ config }));
      await api.register(adminSearchRoutes({ search }));
      await api.register(staffInvitationRoutes({ invitations, config }));
    },
    { prefix: '/api/v1' },
  );
  return app;
}

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;
