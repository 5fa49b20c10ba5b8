import pino, { type Logger } from 'pino';
import type { Config } from '../config.js';

/**
 * The process's one logger: JSON lines (what log collectors read). The HTTP
 * app logs through it, and so does everything that runs before and after the
 * app (start-up, the embedded database's keeper, shutdown).
 */
export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
    // Cookies, CSRF tokens and passwords never reach the log.
    redact: ['req.headers.cookie', 'req.headers["x-csrf-token"]', 'req.headers.authorization', 'res.headers["set-cookie"]'],
  });
}
