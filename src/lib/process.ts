import type { Logger } from 'pino';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { createLogger } from './logger.js';
import { installShutdown, type Shutdown } from './shutdown.js';

/**
 * The frame of a long-running process (the API, the email worker): the
 * configuration (a bad value stops it with a message naming the variable),
 * the logger, and the shutdown that owns SIGTERM/SIGINT. A start-up failure
 * runs the shutdown steps registered so far (an embedded server already
 * started is stopped again) and exits 1.
 */
export function startProcess(run: (context: { config: Config; log: Logger; shutdown: Shutdown }) => Promise<void>): void {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  }
  const log = createLogger(config);
  const shutdown = installShutdown({ graceMs: config.shutdownGraceMs, log });
  run({ config, log, shutdown }).catch((error: unknown) => {
    log.fatal({ err: error, ...hintFor(error, config) }, 'start-up failed');
    void shutdown.run('start-up failed', 1);
  });
}

/** What to do about a start-up failure an operator meets on the first day, beside the error itself. */
function hintFor(error: unknown, config: Config): { hint?: string } {
  const { code, port } = (error ?? {}) as { code?: unknown; port?: unknown };
  if (code !== 'EADDRINUSE') return {};
  const setting = port === config.metrics.port && port !== config.port ? 'METRICS_PORT' : 'PORT';
  return { hint: `port ${String(port)} is in use (another instance?): stop what uses it, or start with ${setting}=<another port>` };
}
