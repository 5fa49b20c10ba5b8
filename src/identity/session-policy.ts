import type { Config } from '../config.js';
import type { Role } from '../db/schema.js';

/** How long a session lives: from sign-in at most (`ttlMs`), and unused at most (`idleMs`). */
export interface SessionLimits {
  ttlMs: number;
  idleMs: number;
}

/**
 * Customers and staff apart: a staff session can change prices, refund orders and read every
 * customer's address, so it ends sooner (a working day unused, a day at most by default) than a
 * shopper's, which keeps a cart and an account signed in for weeks.
 */
export interface SessionPolicy {
  customer: SessionLimits;
  staff: SessionLimits;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export function sessionPolicyOf(
  config: Pick<Config, 'sessionTtlDays' | 'sessionIdleDays' | 'staffSessionTtlHours' | 'staffSessionIdleHours'>,
): SessionPolicy {
  return {
    customer: { ttlMs: config.sessionTtlDays * DAY_MS, idleMs: config.sessionIdleDays * DAY_MS },
    staff: { ttlMs: config.staffSessionTtlHours * HOUR_MS, idleMs: config.staffSessionIdleHours * HOUR_MS },
  };
}

/** The limits of an account's sessions: its role when signing in (a role change ends its sessions). */
export const limitsFor = (policy: SessionPolicy, role: Role): SessionLimits => (role === 'CUSTOMER' ? policy.customer : policy.staff);
