import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import { containsPattern, countOf, keyIn, paged } from '../lib/sql.js';
import type { Sort } from '../lib/pagination.js';
import type { AccountSortField, AdminUserListQuery } from './schemas.js';

/** Read models of the accounts admin: the filtered account list and an account's order totals. Writes go through src/identity. */

function filtered(db: Executor, query: AdminUserListQuery) {
  let base = db.selectFrom('users');
  if (query.role === 'STAFF') base = base.where('role', 'in', ['ADMIN', 'SUPER_ADMIN']);
  else if (query.role) base = base.where('role', '=', query.role);
  if (query.status) base = base.where('status', '=', query.status);
  if (query.joined_from) base = base.where('created_at', '>=', new Date(query.joined_from));
  if (query.joined_to) base = base.where('created_at', '<', new Date(query.joined_to));
  if (query.search) {
    // Two trigram-index lookups: email and full name.
    const pattern = containsPattern(query.search);
    const ids = db
      .selectFrom('users as byemail')
      .select('byemail.id')
      .where('byemail.email', 'ilike', pattern)
      .unionAll(
        db
          .selectFrom('users as byname')
          .select('byname.id')
          .where(sql`byname.first_name || ' ' || byname.last_name`, 'ilike', pattern),
      );
    base = base.where(keyIn('id', ids));
  }
  return base;
}

const SORT_COLUMNS = {
  created_at: ['created_at'],
  email: ['email'],
  name: ['last_name', 'first_name'],
} as const satisfies Record<AccountSortField, readonly string[]>;

/** A page of accounts in the asked order (public ID breaks ties), each row with the filtered total as `total_count`. */
export function listAccounts(db: Executor, query: AdminUserListQuery, sort: Sort<AccountSortField>) {
  let page = filtered(db, query)
    .selectAll()
    .select(countOf(filtered(db, query)).as('total_count'));
  for (const column of SORT_COLUMNS[sort.field]) page = page.orderBy(column, sort.direction);
  return page.orderBy('public_id', sort.direction).$call(paged(query)).execute();
}

export async function countAccounts(db: Executor, query: AdminUserListQuery): Promise<number> {
  return (await countOf(filtered(db, query)).executeTakeFirstOrThrow()).n;
}

/** Orders an account placed (cancelled included) and what the ones not cancelled add up to. */
/** An account's order count and spend (cancelled orders count as orders, not as spend), over `orders` rows. */
export const orderTotalColumns = [
  sql<number>`count(*)::int`.as('order_count'),
  sql<string>`coalesce(sum(total) FILTER (WHERE status <> 'CANCELLED'), 0)::numeric(12,2)::text`.as('lifetime_spend'),
];

export function orderTotals(db: Executor, userId: number) {
  return db.selectFrom('orders').select(orderTotalColumns).where('user_id', '=', userId).executeTakeFirstOrThrow();
}
