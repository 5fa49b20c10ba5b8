import type { Db } from '../db/database.js';
import type { UserRow } from '../db/schema.js';
import { writeAudit } from '../audit/audit-log.js';
import type { AuthedCtx } from '../lib/context.js';
import { invalidPassword } from '../lib/errors.js';
import { verifyPassword } from '../lib/password.js';
import type { RateLimiter } from '../rate-limits/limiter.js';

/**
 * The current password, asked again before a sensitive change (password,
 * email). A stolen session must not be able to guess it: each attempt counts
 * in the account's LOGIN window before the password is checked (so parallel
 * guesses are all counted, and once over the limit even the right password is
 * 429), a right answer gives its count back, and a wrong one is audited like a
 * failed login.
 */
export async function recheckPassword(
  deps: { db: Db; limiter: RateLimiter },
  ctx: AuthedCtx,
  user: Pick<UserRow, 'email' | 'password_hash' | 'public_id'>,
  password: string,
  field: 'password' | 'current_password',
): Promise<void> {
  await deps.limiter.hit(deps.db, 'LOGIN', user.email, { enforce: true });
  if (await verifyPassword(password, user.password_hash)) {
    await deps.limiter.release(deps.db, 'LOGIN', user.email);
    return;
  }
  await writeAudit(deps.db, ctx, {
    action: 'auth.password_check_failed',
    entityType: 'user',
    entityPublicId: user.public_id,
    changes: { after: { field } },
  });
  throw invalidPassword(field);
}
