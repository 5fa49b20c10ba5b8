import type { Db, Executor } from '../db/database.js';
import type { CouponRow } from '../db/schema.js';
import { writeAudit } from '../audit/audit-log.js';
import type { Clock } from '../lib/clock.js';
import type { AuthedCtx } from '../lib/context.js';
import { notFound } from '../lib/errors.js';
import { isPublicId, newPublicId } from '../lib/ids.js';
import { parseSort, toPage, type PageRequest } from '../lib/pagination.js';
import {
  countCoupons,
  countUsages,
  findCoupon,
  insertCoupon,
  listCoupons,
  listUsages,
  softDeleteCoupon,
  updateCoupon,
  type CouponValues,
} from './repository.js';
import { checkCouponDefinition, couponStatus } from './rules.js';
import type { Coupon, CouponCreate, CouponListQuery, CouponPatch, CouponSortField } from './schemas.js';
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

const audited = (c: CouponRow) => {
  const { id: _id, created_at: _c, updated_at: _u, deleted_at: _d, ...rest } = c;
  return rest;
};

/**
 * Admin coupons (contract section 9). Deletes are soft so usage history keeps
 * its coupon. A code another live coupon has is CODE_TAKEN: its unique index
 * decides (src/lib/db-errors.ts).
 */
export function createCouponService({ db, clock }: { db: Db; clock: Clock }) {
  async function find(executor: Executor, publicId: string, lock = false): Promise<CouponRow> {
    const row = isPublicId('cpn', publicId) ? await findCoupon(executor, publicId, lock) : undefined;
    if (!row) throw notFound('Coupon');
    return row;
  }

  return {
    async list(query: CouponListQuery) {
      const rows = await listCoupons(db, query.search, parseSort<CouponSortField>(query.sort), query);
      const now = clock.now();
      return toPage(
        rows,
        query,
        () => countCoupons(db, query.search),
        (row) => toCoupon(row, now),
      );
    },

    get: async (publicId: string) => toCoupon(await find(db, publicId), clock.now()),

    async create(ctx: AuthedCtx, input: CouponCreate): Promise<Coupon> {
      checkCouponDefinition(input);
      return transaction(db, async (trx) => {
        const row = await insertCoupon(trx, newPublicId('cpn'), {
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
        });
        await writeAudit(trx, ctx, {
          action: 'coupon.create',
          entityType: 'coupon',
          entityPublicId: row.public_id,
          changes: { before: null, after: audited(row) },
        });
        return toCoupon(row, clock.now());
      });
    },

    async update(ctx: AuthedCtx, publicId: string, patch: CouponPatch): Promise<Coupon> {
      return transaction(db, async (trx) => {
        const before = await find(trx, publicId, true);
        const merged = { ...before, ...patch, code: patch.code?.toUpperCase() ?? before.code };
        checkCouponDefinition(merged, before.times_used);
        const values: CouponValues = {
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
        };
        const after = await updateCoupon(trx, before.id, values, clock.now());
        await writeAudit(trx, ctx, {
          action: 'coupon.update',
          entityType: 'coupon',
          entityPublicId: publicId,
          changes: { before: audited(before), after: audited(after) },
        });
        return toCoupon(after, clock.now());
      });
    },

    async remove(ctx: AuthedCtx, publicId: string): Promise<void> {
      await transaction(db, async (trx) => {
        const coupon = await find(trx, publicId, true);
        await softDeleteCoupon(trx, coupon.id, clock.now());
        await writeAudit(trx, ctx, {
          action: 'coupon.delete',
          entityType: 'coupon',
          entityPublicId: publicId,
          changes: { before: audited(coupon), after: null },
        });
      });
    },

    async usages(publicId: string, page: PageRequest) {
      const coupon = await find(db, publicId);
      const rows = await listUsages(db, coupon.id, page);
      return toPage(
        rows,
        page,
        () => countUsages(db, coupon.id),
        (row) => ({
          order_public_id: row.order_public_id,
          order_number: row.order_number,
          user: { public_id: row.user_public_id, email: row.email },
          discount_amount: row.discount_amount,
          released: row.released_at !== null,
          created_at: row.created_at.toISOString(),
        }),
      );
    },
  };
}

export type CouponService = ReturnType<typeof createCouponService>;
