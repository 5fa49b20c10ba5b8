import type { Db, Executor } from '../db/database.js';
import type { CouponRow } from '../db/schema.js';
import { writeAudit } from '../audit/audit-log.js';
import type { Clock } from '../lib/clock.js';
import type { AuthedCtx } from '../lib/context.js';
import { notFound, validationError } from '../lib/errors.js';
import { isPublicId, newPublicId } from '../lib/ids.js';
import { paged, toPage, type PageRequest, countOf, totalOf } from '../lib/pagination.js';
import { containsPattern } from '../lib/sql.js';
import { couponStatus } from './rules.js';
import type { Coupon, CouponCreate, CouponListQuery, CouponPatch } from './schemas.js';
import { transaction } from '../db/transaction.js';

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function toCoupon(row: CouponRow, now: Date): Coupon {
  return {
    public_id: row.public_id,
    code: row.code,
    discount_type: row.discount_type,
    discount_value: row.discount_value,
    minimum_order_amount: row.minimum_order_amount,
    maximum_discount_amount: row.maximum_discount_amount,
    usage_limit: row.usage_limit,
    usage_limit_per_user: row.usage_limit_per_user,
    starts_at: iso(row.starts_at),
    expires_at: iso(row.expires_at),
    is_active: row.is_active,
    status: couponStatus(row, now),
    times_used: row.times_used,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** Checks that hold across fields, after a create or a patch is merged. */
function checkCoherent(c: {
  discount_type: string;
  discount_value: string;
  maximum_discount_amount?: string | null;
  starts_at?: string | Date | null;
  expires_at?: string | Date | null;
}) {
  if (Number(c.discount_value) <= 0) throw validationError('discount_value must be above zero', [{ field: 'discount_value', message: 'must be > 0' }]);
  // A cap of zero would make the coupon worthless (and the database refuses it).
  if (c.maximum_discount_amount !== undefined && c.maximum_discount_amount !== null && Number(c.maximum_discount_amount) <= 0) {
    throw validationError('maximum_discount_amount must be above zero', [{ field: 'maximum_discount_amount', message: 'must be > 0 (or null for no cap)' }]);
  }
  if (c.discount_type === 'PERCENTAGE' && Number(c.discount_value) > 100) {
    throw validationError('A percentage discount is at most 100', [{ field: 'discount_value', message: 'must be <= 100 for PERCENTAGE' }]);
  }
  if (c.starts_at && c.expires_at && new Date(c.starts_at) >= new Date(c.expires_at)) {
    throw validationError('expires_at must be after starts_at', [{ field: 'expires_at', message: 'must be after starts_at' }]);
  }
}

/** Admin coupons (contract section 9). Deletes are soft so usage history keeps its coupon. */
export function createCouponService({ db, clock }: { db: Db; clock: Clock }) {
  async function find(executor: Executor, publicId: string, lock = false): Promise<CouponRow> {
    if (!isPublicId('cpn', publicId)) throw notFound('Coupon');
    let query = executor.selectFrom('coupons').selectAll().where('public_id', '=', publicId).where('deleted_at', 'is', null);
    if (lock) query = query.forUpdate();
    const row = await query.executeTakeFirst();
    if (!row) throw notFound('Coupon');
    return row;
  }

  /** A code another live coupon has is CODE_TAKEN: its unique index decides. */
  const write = <T>(work: (trx: Executor) => Promise<T>): Promise<T> => transaction(db, work);

  const audited = (c: CouponRow) => {
    const { id: _id, created_at: _c, updated_at: _u, deleted_at: _d, ...rest } = c;
    return rest;
  };

  return {
    async list(query: CouponListQuery) {
      let base = db.selectFrom('coupons').where('deleted_at', 'is', null);
      if (query.search) base = base.where('code', 'ilike', containsPattern(query.search));
      const rows = await base
        .selectAll()
        .select(countOf(base).as('total_count'))
        .orderBy('created_at', 'desc')
        .orderBy('public_id', 'desc')
        .$call(paged(query))
        .execute();
      const now = clock.now();
      return toPage(rows, query, totalOf(base), (row) => toCoupon(row, now));
    },

    get: async (publicId: string) => toCoupon(await find(db, publicId), clock.now()),

    create: (ctx: AuthedCtx, input: CouponCreate) =>
      write(async (trx) => {
        checkCoherent(input);
        const row = await trx
          .insertInto('coupons')
          .values({
            public_id: newPublicId('cpn'),
            code: input.code.toUpperCase(),
            discount_type: input.discount_type,
            discount_value: input.discount_value,
            minimum_order_amount: input.minimum_order_amount ?? null,
            maximum_discount_amount: input.maximum_discount_amount ?? null,
            usage_limit: input.usage_limit ?? null,
            usage_limit_per_user: input.usage_limit_per_user ?? null,
            starts_at: input.starts_at ?? null,
            expires_at: input.expires_at ?? null,
            is_active: input.is_active ?? true,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await writeAudit(trx, ctx, { action: 'coupon.create', entityType: 'coupon', entityPublicId: row.public_id, changes: { before: null, after: audited(row) } });
        return toCoupon(row, clock.now());
      }),

    update: (ctx: AuthedCtx, publicId: string, patch: CouponPatch) =>
      write(async (trx) => {
        const before = await find(trx, publicId, true);
        const merged = { ...before, ...patch, code: patch.code?.toUpperCase() ?? before.code };
        checkCoherent(merged);
        if (merged.usage_limit !== null && merged.usage_limit < before.times_used) {
          throw validationError('usage_limit cannot be below the uses already made', [
            { field: 'usage_limit', message: `must be at least ${before.times_used}` },
          ]);
        }
        const after = await trx
          .updateTable('coupons')
          .set({
            code: merged.code,
            discount_type: merged.discount_type,
            discount_value: merged.discount_value,
            minimum_order_amount: merged.minimum_order_amount,
            maximum_discount_amount: merged.maximum_discount_amount,
            usage_limit: merged.usage_limit,
            usage_limit_per_user: merged.usage_limit_per_user,
            starts_at: merged.starts_at,
            expires_at: merged.expires_at,
            is_active: merged.is_active,
            updated_at: new Date(),
          })
          .where('id', '=', before.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await writeAudit(trx, ctx, { action: 'coupon.update', entityType: 'coupon', entityPublicId: publicId, changes: { before: audited(before), after: audited(after) } });
        return toCoupon(after, clock.now());
      }),

    remove: (ctx: AuthedCtx, publicId: string) =>
      write(async (trx) => {
        const coupon = await find(trx, publicId, true);
        await trx.updateTable('coupons').set({ deleted_at: new Date(), updated_at: new Date() }).where('id', '=', coupon.id).execute();
        await writeAudit(trx, ctx, { action: 'coupon.delete', entityType: 'coupon', entityPublicId: publicId, changes: { before: audited(coupon), after: null } });
      }),

    async usages(publicId: string, page: PageRequest) {
      const coupon = await find(db, publicId);
      const base = db
        .selectFrom('coupon_usages as cu')
        .innerJoin('orders as o', 'o.id', 'cu.order_id')
        .innerJoin('users as u', 'u.id', 'cu.user_id')
        .where('cu.coupon_id', '=', coupon.id);
      const rows = await base
        .select(['o.public_id as order_public_id', 'o.order_number', 'u.public_id as user_public_id', 'u.email', 'cu.discount_amount', 'cu.released_at', 'cu.created_at'])
        .select(countOf(base).as('total_count'))
        .orderBy('cu.created_at', 'desc')
        .orderBy('cu.id', 'desc')
        .$call(paged(page))
        .execute();
      return toPage(rows, page, totalOf(base), (row) => ({
        order_public_id: row.order_public_id,
        order_number: row.order_number,
        user: { public_id: row.user_public_id, email: row.email },
        discount_amount: row.discount_amount,
        released: row.released_at !== null,
        created_at: row.created_at.toISOString(),
      }));
    },
  };
}

export type CouponService = ReturnType<typeof createCouponService>;
