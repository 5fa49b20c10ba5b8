/**
 * Background work that runs again and again in the process (the email worker,
 * the pruner): each run is followed by a pause of `pauseAfter(result)` ms; a
 * failed run is reported to `onError` and followed by `retryMs`. Timers are
 * unref'd, so they never keep a process alive; `stop()` cancels what is
 * scheduled and waits for a run in flight.
 */
export interface BackgroundLoop {
  /** Starts the loop (if stopped) with a first run after `firstDelayMs`. */
  start(firstDelayMs: number): void;
  stop(): Promise<void>;
  /** Runs again now instead of at the end of the current pause; during a run, right after it. */
  nudge(): void;
}

export function backgroundLoop<T>(options: {
  run: () => Promise<T>;
  pauseAfter: (result: T) => number;
  retryMs: number;
  onError: (error: unknown) => void;
}): BackgroundLoop {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = true;
  let waiting = false;
  let nudged = false;

  function schedule(delay: number) {
    if (stopped) return;
    waiting = true;
    timer = setTimeout(() => {
      waiting = false;
      running = options.run().then(
        (result) => {
          running = null;
          const again = nudged;
          nudged = false;
          schedule(again ? 0 : options.pauseAfter(result));
        },
        (error: unknown) => {
          running = null;
          options.onError(error);
          schedule(options.retryMs);
        },
      );
    }, delay);
    timer.unref();
  }

  return {
    start(firstDelayMs) {
      if (!stopped) return;
      stopped = false;
      schedule(firstDelayMs);
    },
    async stop() {
      stopped = true;
      waiting = false;
      if (timer) clearTimeout(timer);
      timer = null;
      if (running) await running;
    },
    nudge() {
      if (stopped) return;
      if (running) nudged = true;
      else if (waiting) {
        if (timer) clearTimeout(timer);
        schedule(0);
      }
    },
  };
}
