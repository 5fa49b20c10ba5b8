/**
 * When a failed delivery is tried again: exponential backoff from `baseMs`,
 * doubling per attempt up to `maxMs`, each delay jittered by ±25% so the
 * deliveries a receiver's outage failed together do not all come back at
 * once, until `windowMs` after the round's first attempt (about three days
 * by default: 10 s, 20 s, 40 s ... 12 h, some 17 attempts). Past the window
 * the delivery has FAILED and waits for a manual redelivery.
 */
export interface RetryPolicy {
  baseMs: number;
  maxMs: number;
  windowMs: number;
}

export function retryDelayMs(attempts: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const exponential = Math.min(policy.baseMs * 2 ** Math.min(attempts - 1, 52), policy.maxMs);
  return Math.round(exponential * (0.75 + random() * 0.5));
}

/** The time of the next attempt after `attempts` failed ones, or null when the window is over. */
export function nextAttemptAt(
  attempts: number,
  firstAttemptAt: Date,
  now: Date,
  policy: RetryPolicy,
  random: () => number = Math.random,
): Date | null {
  const at = new Date(now.getTime() + retryDelayMs(attempts, policy, random));
  return at.getTime() - firstAttemptAt.getTime() > policy.windowMs ? null : at;
}
