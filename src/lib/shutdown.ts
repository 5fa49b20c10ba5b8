import type { Logger } from 'pino';

/**
 * The process's one owner of SIGTERM and SIGINT. What start-up brings up it
 * registers here as it goes; on the first signal the steps run in reverse
 * order (last started, first stopped), each told the deadline of the grace
 * period so it can cut its own waiting short (the HTTP server closes the
 * connections still open). If the steps overrun the grace period by more
 * than a few seconds the process exits anyway, with code 1. A second signal
 * (a second Ctrl-C, an orchestrator that repeats itself) hurries the steps:
 * what waits only for others (the balancer's delay) stops waiting, and what
 * protects work (the drain of requests in flight) goes on. A repeat within
 * REPEAT_MS of the first is the same stop delivered twice (a terminal's
 * Ctrl-C reaches both npm and the service, and npm passes its copy on), not
 * a hurry.
 */
export interface Shutdown {
  /** `close` runs on shutdown; `deadline` is when the grace period ends (epoch ms); `hurry` aborts on a second signal. */
  add(name: string, close: (deadline: number, hurry: AbortSignal) => Promise<void>): void;
  /** Runs the steps and exits, as a signal would (start-up failures use it too). */
  run(reason: string, exitCode?: number): Promise<never>;
}

/** How far past the grace period the steps may run before the process exits regardless. */
const HARD_MARGIN_MS = 5_000;
/** A signal this soon after the first is a copy of it. */
const REPEAT_MS = 1_000;

export function installShutdown(options: { graceMs: number; log: Logger; exit?: (code: number) => never }): Shutdown {
  const { graceMs, log } = options;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const steps: { name: string; close: (deadline: number, hurry: AbortSignal) => Promise<void> }[] = [];
  let running: Promise<never> | null = null;
  const hurry = new AbortController();
  let firstSignalAt = 0;

  async function run(reason: string, exitCode = 0): Promise<never> {
    const started = Date.now();
    const deadline = started + graceMs;
    log.info({ reason, grace_ms: graceMs }, 'shutting down');
    setTimeout(() => {
      log.error({ reason, elapsed_ms: Date.now() - started }, 'shutdown overran the grace period; exiting now');
      exit(1);
    }, graceMs + HARD_MARGIN_MS).unref();
    let code = exitCode;
    for (const step of [...steps].reverse()) {
      try {
        await step.close(deadline, hurry.signal);
      } catch (error) {
        code = 1;
        log.error({ err: error, step: step.name }, 'shutdown step failed');
      }
    }
    log.info({ reason, elapsed_ms: Date.now() - started, exit_code: code }, 'shutdown complete');
    return exit(code);
  }

  const shutdown: Shutdown = {
    add: (name, close) => void steps.push({ name, close }),
    run(reason, exitCode) {
      running ??= run(reason, exitCode);
      return running;
    },
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (!running) firstSignalAt = Date.now();
      else if (Date.now() - firstSignalAt < REPEAT_MS) log.info({ signal }, 'already shutting down (the same stop, delivered twice)');
      else {
        log.warn({ signal }, 'already shutting down; hurrying (requests in flight still finish)');
        hurry.abort();
      }
      void shutdown.run(signal);
    });
  }
  return shutdown;
}
