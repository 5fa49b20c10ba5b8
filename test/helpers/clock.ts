import { setTimeout as sleep } from 'node:timers/promises';

/** Longer than any file that counts "today" or "this month" runs on a loaded machine. */
const MARGIN_MS = 3 * 60_000;

/**
 * Waits past the next UTC midnight when it is less than three minutes away. The service and a
 * test that asserts on today's or this month's figures must read the same day; the server's clock
 * is the real one, so a file that starts just before midnight starts again just after it.
 */
export async function clearOfUtcMidnight(): Promise<void> {
  const now = Date.now();
  const nextMidnight = Math.ceil((now + 1) / 86_400_000) * 86_400_000;
  if (nextMidnight - now < MARGIN_MS) await sleep(nextMidnight - now + 1000);
}
