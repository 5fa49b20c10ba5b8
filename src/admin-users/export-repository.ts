import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import type { Role } from '../db/schema.js';
import { orderTotalColumns } from './repository.js';

/** The accounts export: every account matching the filters, oldest first, with its orders' count and spend. */

export interface AccountExportFilters {
  /** A role, or STAFF for both staff roles (as the account list filters). */
  role?: Role | 'STAFF' | undefined;
  status?: 'ACTIVE' | 'SUSPENDED' | undefined;
}

export const ACCOUNT_CSV_COLUMNS = [
  'public_id',
  'email',
  'first_name',
  'last_name',
  'phone_number',
  'role',
  'status',
  'email_verified',
  'created_at',
  'order_count',
  'lifetime_spend',
] as const;

function matching(db: Executor, f: AccountExportFilters) {
  return db
    .selectFrom('users as u')
    .$if(f.role === 'STAFF', (q) => q.where('u.role', 'in', ['ADMIN', 'SUPER_ADMIN']))
    .$if(f.role !== undefined && f.role !== 'STAFF', (q) => q.where('u.role', '=', f.role as Role))
    .$if(f.status !== undefined, (q) => q.where('u.status', '=', f.status!));
}

export async function countAccountsForExport(db: Executor, f: AccountExportFilters): Promise<number> {
  return (
    await matching(db, f)
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow()
  ).n;
}

export async function* accountExportBatches(db: Executor, f: AccountExportFilters, size = 500): AsyncGenerator<Record<string, unknown>[]> {
  for (let after = 0; ;) {
    const rows = await matching(db, f)
      .leftJoinLateral(
        (eb) => eb.selectFrom('orders').select(orderTotalColumns).whereRef('orders.user_id', '=', 'u.id').as('spend'),
        (join) => join.onTrue(),
      )
      .select([
        'u.id',
        'u.public_id',
        'u.email',
        'u.first_name',
        'u.last_name',
        'u.phone_number',
        'u.role',
        'u.status',
        'u.email_verified_at',
        'u.created_at',
        'spend.order_count',
        'spend.lifetime_spend',
      ])
      .where('u.id', '>', after)
      .orderBy('u.id')
      .limit(size)
      .execute();
    if (rows.length > 0) {
      yield rows.map((u) => ({ ...u, email_verified: u.email_verified_at !== null, created_at: u.created_at.toISOString() }));
    }
    if (rows.length < size) return;
    after = rows.at(-1)!.id;
  }
}
