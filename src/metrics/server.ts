import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';

/**
 * GET /metrics on its own listener (METRICS_HOST:METRICS_PORT, loopback by
 * default), so the public port never exposes it; with METRICS_TOKEN set a
 * scrape must also send `Authorization: Bearer <token>`. A port already taken
 * (several instances on one host with the default) is logged, not fatal.
 */
export async function startMetricsServer(options: {
  registry: Registry;
  host: string;
  port: number;
  token: string | null;
  log: Logger;
}): Promise<Server | null> {
  const { registry, token, log } = options;
  if (token === null && !isLoopback(options.host)) {
    log.warn({ host: options.host }, 'metrics listen beyond loopback with no METRICS_TOKEN: anyone who reaches this port can read them');
  }
  const expected = token === null ? null : Buffer.from(`Bearer ${token}`);
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    const given = Buffer.from(request.headers.authorization ?? '');
    if (expected && (given.length !== expected.length || !timingSafeEqual(given, expected))) {
      response.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) => {
        log.error({ err: error }, 'metrics collection failed');
        response.writeHead(500).end();
      },
    );
  });
  return new Promise((resolve) => {
    server.once('error', (error) => {
      log.error({ err: error, port: options.port }, 'metrics listener could not start; serving without /metrics');
      resolve(null);
    });
    server.listen(options.port, options.host, () => {
      log.info({ host: options.host, port: options.port }, 'metrics at /metrics');
      resolve(server);
    });
  });
}

const isLoopback = (host: string) => host === 'localhost' || host === '::1' || host.startsWith('127.');
