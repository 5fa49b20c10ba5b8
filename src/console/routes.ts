import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { assetLogLevel } from '../lib/detail-log-level.js';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../lib/error-handler.js';

/** Where the console's client-side router lives; every path below it that is not a file is the app shell. */
export const CONSOLE_PREFIX = '/admin';

/**
 * The console's own policy, stricter than the API's defaults where it can be: scripts only from this
 * origin, images also from any https host (product images may live on ImageKit), and uploads may go
 * to ImageKit's endpoint. Mantine sets CSS variables through a style tag, hence 'unsafe-inline' for styles.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "connect-src 'self' https://upload.imagekit.io",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Serves the production build of packages/console under /admin, same origin as the API, so the
 * session cookie and CSRF work without CORS. Hashed assets are cached for a year; the shell is
 * never cached, so a deploy takes effect on the next navigation. A build made while the service
 * runs (`npm run build:console`) is served as it lands: the shell is read again when its file
 * changes, and assets are looked up on disk, not from a list made at start. Without a build,
 * /admin says how to make one instead of failing obscurely.
 */
export async function registerConsole(app: FastifyInstance, consoleDir: string): Promise<void> {
  const shellPath = path.join(consoleDir, 'index.html');
  const built = existsSync(shellPath);
  let kept: { changed: number; html: Buffer } | null = null;
  const shell = (): Buffer | null => {
    try {
      const changed = statSync(shellPath).mtimeMs;
      if (kept?.changed !== changed) kept = { changed, html: readFileSync(shellPath) };
      return kept.html;
    } catch {
      return kept?.html ?? null;
    }
  };

  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), access: 'public' };
      route.schema = { ...(route.schema ?? {}), hide: true };
    });
    scope.addHook('onSend', async (_request, reply, payload) => {
      reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
      return payload;
    });

    const sendShell = async (_request: unknown, reply: import('fastify').FastifyReply) => {
      const html = built ? shell() : null;
      if (!html) {
        return sendError(
          reply,
          503,
          'CONSOLE_NOT_BUILT',
          'The console has not been built: run `npm run build:console` (npm start does it)',
        );
      }
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
    };

    if (built) {
      await scope.register(fastifyStatic, {
        // The build's files: a page brings a dozen, and its own request line says enough (shown at debug).
        logLevel: assetLogLevel(app),
        root: path.join(consoleDir, 'assets'),
        prefix: `${CONSOLE_PREFIX}/assets/`,
        immutable: true,
        maxAge: '365d',
        // scripts/console-build.ts writes .br and .gz beside each asset; the browser gets the smallest it accepts.
        preCompressed: true,
        // Those copies are how an asset is sent, not addresses of their own.
        allowedPath: (pathName) => !/\.(br|gz)$/.test(pathName),
        index: false,
        // Looked up on disk at each request (a rebuild's new files too). A missing asset is a 404 (the
        // API's not-found), never the shell: a stale tab would otherwise parse HTML as JS.
        wildcard: true,
      });
    }
    scope.get(CONSOLE_PREFIX, sendShell);
    scope.get(`${CONSOLE_PREFIX}/`, sendShell);
    // Deep links (/admin/orders/ord_...) load the shell; the client-side router takes it from there.
    scope.get(`${CONSOLE_PREFIX}/*`, async (request, reply) => {
      const rest = (request.params as { '*': string })['*'];
      if (rest.startsWith('assets/') || path.extname(rest) !== '') {
        return sendError(reply, 404, 'NOT_FOUND', 'No such file');
      }
      return sendShell(request, reply);
    });
  });
}
