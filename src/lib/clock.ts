/**
 * The service's notion of "now", injectable so tests can move time forward.
 * Every time the application reasons about comes from here: expiries,
 * rate-limit windows, email leases, a statistics period's "today", a
 * session's start (its lifetime counts from it), and the update and deletion
 * times it writes. The moment a row is made is stamped by
 * PostgreSQL in the inserting statement (`DEFAULT now()`: `created_at`,
 * `placed_at`, status history, audit entries), and stock movements by
 * `clock_timestamp()` under the row lock, so they sort in the order applied.
 * On one machine the two are one clock; behind a load balancer the
 * database's is the one every instance shares.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
