import { sql } from 'kysely';
import type { Db, Trx } from '../db/database.js';
import type { OrderRow } from '../db/schema.js';
import { writeAudit } from '../audit/audit-log.js';
import { releaseStock, shipStock } from '../inventory/stock.js';
import type { Clock } from '../lib/clock.js';
import type { AuthedCtx } from '../lib/context.js';
import { insufficientStock, invalidTransition, notFound, validationError } from '../lib/errors.js';
import { isPublicId } from '../lib/ids.js';
import { parseSort, toPage } from '../lib/pagination.js';
import { enqueueEmail } from '../outbox/outbox.js';
import { countOrders, findOrderRow, listOrderRows, orderDetails, toCustomerOrder, toOrders, type OrderFilters } from './repository.js';
import type { AdminOrder, AdminOrderListQuery, Order, OrderListQuery, OrderSortField, OrderStatus, OrderStatusChange } from './schemas.js';
import { allowedFrom, canMove } from './transitions.js';
import { transaction } from '../db/transaction.js';

/** Orders after checkout: reading them and moving them through their lifecycle. */
export function createOrderService({ db, clock }: { db: Db; clock: Clock }) {
  async function page(filters: OrderFilters, query: { page: number; limit: number; sort: string }) {
    const rows = await listOrderRows(db, filters, parseSort<OrderSortField>(query.sort), query);
    const details = await orderDetails(db, rows.map((r) => r.id));
    const result = await toPage(rows, query, () => countOrders(db, filters), (row) => row);
    return { data: toOrders(result.data, details), meta: result.meta };
  }

  async function one(publicId: string, userId?: number): Promise<AdminOrder> {
    const row = isPublicId('ord', publicId) ? await findOrderRow(db, publicId, userId) : undefined;
    if (!row) throw notFound('Order');
    return toOrders([row], await orderDetails(db, [row.id]))[0]!;
  }

  /**
   * Moves an order to `to` with its stock and coupon effects, inside the
   * caller's transaction. The order row is locked first; then the coupon,
   * then inventory rows, the same order checkout takes them in.
   */
  async function move(trx: Trx, ctx: AuthedCtx, order: OrderRow, to: OrderStatus, change: Partial<OrderStatusChange>) {
    if (!canMove(order.status, to)) {
      throw invalidTransition(order.status, to, allowedFrom(order.status));
    }
    const items = await trx
      .selectFrom('order_items as oi')
      .innerJoin('variants as v', 'v.id', 'oi.variant_id')
      .select(['oi.variant_id', 'oi.quantity', 'v.public_id as variant_public_id', 'v.sku'])
      .where('oi.order_id', '=', order.id)
      .execute();
    const lines = items.map((item) => ({ variantId: item.variant_id, quantity: item.quantity }));

    if (to === 'CANCELLED') {
      if (order.coupon_id !== null) {
        await trx.selectFrom('coupons').select('id').where('id', '=', order.coupon_id).forUpdate().execute();
        const released = await trx
          .updateTable('coupon_usages')
          .set({ released_at: clock.now() })
          .where('order_id', '=', order.id)
          .where('released_at', 'is', null)
          .returning('id')
          .executeTakeFirst();
        if (released) await trx.updateTable('coupons').set({ times_used: sql`times_used - 1` }).where('id', '=', order.coupon_id).execute();
      }
      await releaseStock(trx, lines, order.id, ctx.actor.userId);
    }
    if (to === 'SHIPPED') {
      const shortages = await shipStock(trx, lines, order.id, ctx.actor.userId);
      if (shortages.length > 0) {
        const byId = new Map(items.map((item) => [item.variant_id, item]));
        throw insufficientStock('On-hand stock is below what this order ships', shortages.map((s) => ({
          field: 'items',
          message: `only ${s.available} on hand`,
          variant_public_id: byId.get(s.variantId)?.variant_public_id,
          sku: byId.get(s.variantId)?.sku,
          requested: s.requested,
          available: s.available,
        })));
      }
    }

    await trx
      .updateTable('orders')
      .set({
        status: to,
        updated_at: clock.now(),
        ...(to === 'SHIPPED' ? { carrier: change.carrier!, tracking_number: change.tracking_number ?? null } : {}),
        ...(to === 'CANCELLED' ? { payment_status: 'REFUNDED' } : {}),
      })
      .where('id', '=', order.id)
      .execute();
    await trx
      .insertInto('order_status_history')
      .values({ order_id: order.id, status: to, actor_user_id: ctx.actor.userId, note: change.note ?? null })
      .execute();
    if (to === 'SHIPPED') {
      const customer = await trx.selectFrom('users').select('email').where('id', '=', order.user_id).executeTakeFirstOrThrow();
      await enqueueEmail(trx, 'order_shipped', customer.email, {
        order_public_id: order.public_id,
        order_number: order.order_number,
        carrier: change.carrier,
        tracking_number: change.tracking_number ?? null,
      });
    }
  }

  async function lockOrder(trx: Trx, publicId: string, userId?: number): Promise<OrderRow> {
    let query = trx.selectFrom('orders').selectAll().where('public_id', '=', publicId);
    if (userId !== undefined) query = query.where('user_id', '=', userId);
    const order = isPublicId('ord', publicId) ? await query.forUpdate().executeTakeFirst() : undefined;
    if (!order) throw notFound('Order');
    return order;
  }

  return {
    listMine: (ctx: AuthedCtx, query: OrderListQuery) =>
      page({ userId: ctx.actor.userId, status: query.status }, query).then((r) => ({ ...r, data: r.data.map(toCustomerOrder) })),

    getMine: async (ctx: AuthedCtx, publicId: string): Promise<Order> => toCustomerOrder(await one(publicId, ctx.actor.userId)),

    async cancelMine(ctx: AuthedCtx, publicId: string): Promise<Order> {
      await transaction(db, async (trx) => {
        const order = await lockOrder(trx, publicId, ctx.actor.userId);
        await move(trx, ctx, order, 'CANCELLED', {});
      });
      return toCustomerOrder(await one(publicId, ctx.actor.userId));
    },

    adminList: (query: AdminOrderListQuery) =>
      page({ status: query.status, search: query.search, customerPublicId: query.customer, placedFrom: query.placed_from, placedTo: query.placed_to }, query),

    adminGet: (publicId: string) => one(publicId),

    async adminChangeStatus(ctx: AuthedCtx, publicId: string, change: OrderStatusChange): Promise<AdminOrder> {
      if (change.status === 'SHIPPED' && !change.carrier) {
        throw validationError('Shipping needs a carrier', [{ field: 'carrier', message: 'is required when status is SHIPPED' }]);
      }
      if (change.status !== 'SHIPPED' && (change.carrier || change.tracking_number)) {
        throw validationError('carrier and tracking_number go with status SHIPPED only', [
          { field: change.carrier ? 'carrier' : 'tracking_number', message: 'only allowed when shipping' },
        ]);
      }
      await transaction(db, async (trx) => {
        const order = await lockOrder(trx, publicId);
        await move(trx, ctx, order, change.status, change);
        await writeAudit(trx, ctx, {
          action: 'order.status_change',
          entityType: 'order',
          entityPublicId: publicId,
          changes: {
            before: { status: order.status },
            after: { status: change.status, ...(change.carrier ? { carrier: change.carrier, tracking_number: change.tracking_number ?? null } : {}) },
          },
          reason: change.note ?? null,
        });
      });
      return one(publicId);
    },
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
