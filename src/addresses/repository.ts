import type { Executor } from '../db/database.js';
import type { Updateable } from 'kysely';
import type { AddressesTable, AddressRow, NewAddress } from '../db/schema.js';
import { type PageRequest } from '../lib/pagination.js';
import { paged, countOf, totalOf } from '../lib/sql.js';

export type DefaultFlag = 'is_default_shipping' | 'is_default_billing';

const active = (db: Executor, userId: number) => db.selectFrom('addresses').where('user_id', '=', userId).where('deleted_at', 'is', null);

export function listActiveAddresses(db: Executor, userId: number, page: PageRequest) {
  return active(db, userId)
    .selectAll()
    .select(countOf(active(db, userId)).as('total_count'))
    .orderBy('created_at', 'desc')
    .orderBy('public_id', 'desc')
    .$call(paged(page))
    .execute();
}

export const countActiveAddresses = (db: Executor, userId: number): Promise<number> => totalOf(active(db, userId))();

export function findActiveAddress(db: Executor, userId: number, publicId: string): Promise<AddressRow | undefined> {
  return active(db, userId).selectAll().where('public_id', '=', publicId).executeTakeFirst();
}

export function insertAddress(db: Executor, address: NewAddress): Promise<AddressRow> {
  return db.insertInto('addresses').values(address).returningAll().executeTakeFirstOrThrow();
}

export function updateAddress(db: Executor, id: number, changes: Updateable<AddressesTable>, now: Date): Promise<AddressRow> {
  return db
    .updateTable('addresses')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Takes a default flag away from whichever address of the account holds it. */
export async function clearDefault(db: Executor, userId: number, flag: DefaultFlag, now: Date): Promise<void> {
  await db
    .updateTable('addresses')
    .set({ [flag]: false, updated_at: now })
    .where('user_id', '=', userId)
    .where(flag, '=', true)
    .execute();
}

/** Gives a default flag to the oldest active address ("next oldest", contract section 4). */
export async function promoteOldest(db: Executor, userId: number, flag: DefaultFlag, now: Date): Promise<void> {
  const oldest = await active(db, userId).select('id').orderBy('created_at', 'asc').orderBy('public_id', 'asc').limit(1).executeTakeFirst();
  if (oldest)
    await db
      .updateTable('addresses')
      .set({ [flag]: true, updated_at: now })
      .where('id', '=', oldest.id)
      .execute();
}
