import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import type { Updateable } from 'kysely';
import type { CouponRow, CouponsTable } from '../db/schema.js';
import type { PageRequest, Sort } from '../lib/pagination.js';
import type { CouponSortField } from './schemas.js';
import { containsPattern, countOf, paged } from '../lib/sql.js';

/** SQL of `coupons` and `coupon_usages`, their one owner (checkout and cancellation come through redemption.ts). */

/** A coupon's definition as the admin API writes it (everything but keys, counters and times). */
export type CouponValues = Required<
  Pick<
    Updateable<CouponsTable>,
    | 'code'
    | 'discount_type'
    | 'discount_value'
    | 'minimum_order_amount'
    | 'maximum_discount_amount'
    | 'usage_limit'
    | 'usage_limit_per_user'
    | 'starts_at'
    | 'expires_at'
    | 'is_active'
  >
>;

const live = (db: Executor) => db.selectFrom('coupons').where('deleted_at', 'is', null);

/** A live coupon by public ID, optionally row-locked. */
export function findCoupon(db: Executor, publicId: string, lock = false): Promise<CouponRow | undefined> {
  let query = live(db).selectAll().where('public_id', '=', publicId);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/**
 * A live coupon by its (upper-case) code; `lock` row-locks it (checkout): locking serialises its uses,
 * so usage limits hold under any concurrency. A quote reads it unlocked.
 */
export function findCouponByCode(db: Executor, code: string, lock = false): Promise<CouponRow | undefined> {
  let query = live(db).selectAll().where('code', '=', code);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

const filtered = (db: Executor, search: string | undefined) =>
  search ? live(db).where('code', 'ilike', containsPattern(search)) : live(db);

/** A page of live coupons in the asked order (public ID breaks ties), each row with the filtered total as `total_count`. */
export function listCoupons(db: Executor, search: string | undefined, sort: Sort<CouponSortField>, page: PageRequest) {
  return filtered(db, search)
    .selectAll()
    .select(countOf(filtered(db, search)).as('total_count'))
    .orderBy(sort.field, sort.direction)
    .orderBy('public_id', sort.direction)
    .$call(paged(page))
    .execute();
}

export async function countCoupons(db: Executor, search: string | undefined): Promise<number> {
  return (await countOf(filtered(db, search)).executeTakeFirstOrThrow()).n;
}

/** Inserts a coupon; a code another live coupon has is a unique violation on `coupons_code_unique` (409 CODE_TAKEN). */
export function insertCoupon(db: Executor, publicId: string, values: CouponValues): Promise<CouponRow> {
  return db
    .insertInto('coupons')
    .values({ public_id: publicId, ...values })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateCoupon(db: Executor, id: number, values: CouponValues, now: Date): Promise<CouponRow> {
  return db
    .updateTable('coupons')
    .set({ ...values, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Soft delete: the usage history keeps its coupon. */
export async function softDeleteCoupon(db: Executor, id: number, now: Date): Promise<void> {
  await db.updateTable('coupons').set({ deleted_at: now, updated_at: now }).where('id', '=', id).execute();
}

const usagesOf = (db: Executor, couponId: number) =>
  db
    .selectFrom('coupon_usages as cu')
    .innerJoin('orders as o', 'o.id', 'cu.order_id')
    .innerJoin('users as u', 'u.id', 'cu.user_id')
    .where('cu.coupon_id', '=', couponId);

/** A page of a coupon's uses with their orders and customers, newest first. */
export function listUsages(db: Executor, couponId: number, page: PageRequest) {
  return usagesOf(db, couponId)
    .select([
      'o.public_id as order_public_id',
      'o.order_number',
      'u.public_id as user_public_id',
      'u.email',
      'cu.discount_amount',
      'cu.released_at',
      'cu.created_at',
    ])
    .select(countOf(usagesOf(db, couponId)).as('total_count'))
    .orderBy('cu.created_at', 'desc')
    .orderBy('cu.id', 'desc')
    .$call(paged(page))
    .execute();
}

export async function countUsages(db: Executor, couponId: number): Promise<number> {
  return (await countOf(usagesOf(db, couponId)).executeTakeFirstOrThrow()).n;
}

/** The account's uses of a coupon that were not given back. */
export async function countAccountUses(db: Executor, couponId: number, userId: number): Promise<number> {
  const row = await db
    .selectFrom('coupon_usages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('coupon_id', '=', couponId)
    .where('user_id', '=', userId)
    .where('released_at', 'is', null)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** Counts one use and records it against the order (the coupon row is locked by the caller). */
export async function insertUse(db: Executor, use: { couponId: number; userId: number; orderId: number; discount: string }): Promise<void> {
  await db
    .updateTable('coupons')
    .set({ times_used: sql`times_used + 1` })
    .where('id', '=', use.couponId)
    .execute();
  await db
    .insertInto('coupon_usages')
    .values({ coupon_id: use.couponId, user_id: use.userId, order_id: use.orderId, discount_amount: use.discount })
    .execute();
}

/** Locks a coupon row by ID (before its use by an order is given back). */
export async function lockCoupon(db: Executor, couponId: number): Promise<void> {
  await db.selectFrom('coupons').select('id').where('id', '=', couponId).forUpdate().execute();
}

/** Gives back an order's use, once: marks it released and, when it was not already, uncounts it. */
export async function releaseUse(db: Executor, couponId: number, orderId: number, now: Date): Promise<void> {
  const released = await db
    .updateTable('coupon_usages')
    .set({ released_at: now })
    .where('order_id', '=', orderId)
    .where('released_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (released)
    await db
      .updateTable('coupons')
      .set({ times_used: sql`times_used - 1` })
      .where('id', '=', couponId)
      .execute();
}
