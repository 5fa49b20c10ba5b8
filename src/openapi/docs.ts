import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { Access } from '../auth/guard.js';
import { documentOperation, finishDocument } from './operations.js';
import { documentWebhooks } from './webhooks.js';

const ACCESS_NOTE: Record<Access, string> = {
  public: 'Public.',
  optional: 'Public; uses the session when there is one.',
  user: 'Requires a session (any role).',
  admin: 'Requires a session with role ADMIN or SUPER_ADMIN.',
  super_admin: 'Requires a session with role SUPER_ADMIN.',
};

const DESCRIPTION = `JSON REST API of the store: storefront and admin.

**Envelopes.** Success: \`{ success: true, data, meta? }\`. Error: \`{ success: false, error: { code, message, details? }, request_id }\`.

**Sessions and CSRF.** \`POST /auth/register\` and \`POST /auth/login\` set the HttpOnly \`session\` cookie. Every POST, PATCH, PUT and DELETE
needs the header \`x-csrf-token\` with a token from \`GET /auth/csrf-token\` (which works before signing in, for login and register).
Order of checks on a protected write: session (401), CSRF (403), role (403), validation (400), existence (404).

**IDs** are prefixed public IDs (\`usr_\`, \`adr_\`, ...); a path ID of the wrong shape is 404.
**Lists** take \`page\` (>= 1) and \`limit\` (1-100); a page past the end is an empty \`data\` with accurate \`meta\`.
**Unknown body fields** are rejected with 400.

**Events and webhooks.** Every event the store publishes (an order placed, a status change, stock running low ...) is listed under
\`webhooks\` with its payload. A SUPER_ADMIN subscribes endpoints to them (\`/admin/webhooks/endpoints\`); each delivery is signed per
Standard Webhooks (\`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`).`;

/** The reference UI's page, with and without its trailing slash. */
const UI_PAGES = new Set(['/docs', '/docs/']);

const splitUrl = (url: string): [string, string | null] => {
  const at = url.indexOf('?');
  return at < 0 ? [url, null] : [url.slice(0, at), url.slice(at + 1)];
};

const API_INDEX = {
  name: 'Commerce API',
  version: 'v1',
  reference: '/docs',
  openapi: '/openapi.json',
  health: '/health/ready',
  storefront: '/',
  console: '/admin',
} as const;

/** OpenAPI 3.1 generated from the route schemas, served at /openapi.json, with a reference UI at /docs. */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Commerce API', version: '1.0.0', description: DESCRIPTION },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'session' },
          csrf: { type: 'apiKey', in: 'header', name: 'x-csrf-token' },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transform: ({ schema, url, route }) => {
      const access: Access = route.config?.access ?? 'user';
      const write = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(String(route.method));
      const csrf = write && route.config?.csrf !== false;
      const security = [
        ...(access === 'public' || access === 'optional' ? [] : [{ session: [] as string[] }]),
        ...(csrf ? [{ csrf: [] as string[] }] : []),
      ];
      const base = documentOperation((schema ?? {}) as Record<string, unknown>, {
        url,
        access,
        write,
        csrf,
        documentedBody: route.config?.documentedBody,
        csvOnly: route.config?.csvOnly === true,
      });
      const transformed = {
        ...base,
        description: [base.description, ACCESS_NOTE[access]].filter(Boolean).join('\n\n'),
        ...(security.length > 0 ? { security: [Object.assign({}, ...security)] } : {}),
      };
      return { schema: transformed as typeof schema, url };
    },
    transformObject: (generated) => {
      if (!('openapiObject' in generated)) return generated.swaggerObject;
      const document = finishDocument(generated.openapiObject as Record<string, unknown>);
      documentWebhooks(document);
      return document as typeof generated.openapiObject;
    },
  });
  await app.register(async (scope) => {
    // The reference UI and its assets are public, like the document itself.
    scope.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), access: 'public' };
      route.schema = { ...(route.schema ?? {}), hide: true };
    });
    // The UI page is only ever served without a query string. The plugin's redirect of
    // /docs/static/index.html keeps the query and so points at itself forever, and the page builds
    // the document's URL from its own address, which a query string would take part in. The
    // document's URL is fixed (/docs/json): Swagger UI's own `url` and `configUrl` query options are
    // off unless turned on (queryConfigEnabled), and the page's CSP lets it fetch only from this origin.
    scope.addHook('onRequest', async (request, reply) => {
      const [path, query] = splitUrl(request.url);
      if (path === '/docs/static/index.html' || (UI_PAGES.has(path) && query !== null)) return reply.redirect('/docs/', 302);
    });
    await scope.register(swaggerUi, {
      routePrefix: '/docs',
      staticCSP: true,
      // Swagger UI sets inline styles as it renders; styles run no script, so the page allows them (as the console does).
      transformStaticCSP: (header) => header.replace(/style-src ([^;]*);/, "style-src $1 'unsafe-inline';"),
    });
    scope.get('/openapi.json', async () => app.swagger());
    // The API's base path, the first address a newcomer opens: where everything is, rather than a 404.
    for (const url of ['/api/v1', '/api/v1/']) scope.get(url, async () => ({ success: true as const, data: API_INDEX }));
  });
}
