import type { FastifyRequest } from 'fastify';
import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from '../config.js';
import { loggableUrl } from './loggable-url.js';

/**
 * The process's one logger: JSON lines (what log collectors read) in
 * production and tests, human-readable lines (pino-pretty, written
 * synchronously in this thread) in development. The HTTP app logs through
 * it, and so does everything that runs before and after the app (start-up,
 * the embedded database's keeper, shutdown).
 */
export function createLogger(config: Pick<Config, 'logLevel' | 'logFormat'>): Logger {
  const options = {
    level: config.logLevel,
    // Cookies, CSRF tokens and passwords never reach the log.
    redact: ['req.headers.cookie', 'req.headers["x-csrf-token"]', 'req.headers.authorization', 'res.headers["set-cookie"]'],
    // Fastify's own request line, with the URL's secrets (an emailed link's token) replaced.
    serializers: { req: requestLine },
  };
  if (config.logFormat === 'json') return pino(options);
  return pino(
    options,
    pretty({ colorize: process.stdout.isTTY, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true, sync: true }),
  );
}

function requestLine(request: FastifyRequest) {
  return {
    method: request.method,
    url: loggableUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
