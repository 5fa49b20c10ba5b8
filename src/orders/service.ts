import type { Db, Trx } from '../db/database.js';
import type { OrderRow } from '../db/schema.js';
import { countOrdersForExport, orderExportBatches, type OrderExportFilters } from './export-repository.js';
import { auditExport, writeAudit } from '../audit/audit-log.js';
import { releaseCouponUse } from '../coupons/redemption.js';
import { findUserById } from '../identity/repository.js';
import { releaseStock, shipStock } from '../inventory/stock-repository.js';
import type { Clock } from '../lib/clock.js';
import type { AuthedCtx } from '../lib/context.js';
import { insufficientStock, invalidTransition, notFound, validationError } from '../lib/errors.js';
import { isPublicId } from '../lib/ids.js';
import { parseSort, toPage } from '../lib/pagination.js';
import { enqueueEmail } from '../outbox/repository.js';
import {
  countOrders,
  findOrderRow,
  listOrderRows,
  lockOrder as lockOrderRow,
  orderDetails,
  orderStockLines,
  recordStatusChange,
  toCustomerOrder,
  toOrders,
  type OrderFilters,
} from './repository.js';
import type {
  AdminOrder,
  AdminOrderDetail,
  AdminOrderListQuery,
  Order,
  OrderListQuery,
  OrderSortField,
  OrderStatus,
  OrderStatusChange,
} from './schemas.js';
import { allowedFrom, canMove } from './transitions.js';
import { orderCancelledEmail } from './order-emails.js';
import { recordStatusEvents } from './order-events.js';
import { transaction } from '../db/transaction.js';

/** Orders after checkout: reading them and moving them through their lifecycle. */
export function createOrderService({ db, clock }: { db: Db; clock: Clock }) {
  async function page(filters: OrderFilters, query: { page: number; limit: number; sort: string }) {
    const rows = await listOrderRows(db, filters, parseSort<OrderSortField>(query.sort), query);
    const details = await orderDetails(
      db,
      rows.map((r) => r.id),
    );
    const result = await toPage(
      rows,
      query,
      () => countOrders(db, filters),
      (row) => row,
    );
    return { data: toOrders(result.data, details), meta: result.meta };
  }

  async function one(publicId: string, userId?: number): Promise<AdminOrder> {
    const row = isPublicId('ord', publicId) ? await findOrderRow(db, publicId, userId) : undefined;
    if (!row) throw notFound('Order');
    return toOrders([row], await orderDetails(db, [row.id]))[0]!;
  }

  /** An order with the moves `move` would accept from its status, read from the same table. */
  const detail = async (publicId: string): Promise<AdminOrderDetail> => {
    const order = await one(publicId);
    return { ...order, allowed_transitions: [...allowedFrom(order.status)] };
  };

  /**
   * Moves an order to `to` with its stock and coupon effects, its email (shipped,
   * cancelled) and events, inside the caller's transaction. The order row is locked first;
   * then the coupon, then inventory rows, the same order checkout takes them in.
   */
  async function move(trx: Trx, ctx: AuthedCtx, order: OrderRow, to: OrderStatus, change: Partial<OrderStatusChange>) {
    if (!canMove(order.status, to)) {
      throw invalidTransition(order.status, to, allowedFrom(order.status));
    }
    const now = clock.now();
    const items = await orderStockLines(trx, order.id);
    const lines = items.map((item) => ({ variantId: item.variant_id, quantity: item.quantity }));

    if (to === 'CANCELLED') {
      if (order.coupon_id !== null) await releaseCouponUse(trx, order.coupon_id, order.id, now);
      await releaseStock(trx, lines, order.id, ctx.actor.userId);
    }
    if (to === 'SHIPPED') {
      const shortages = await shipStock(trx, lines, order.id, ctx.actor.userId);
      if (shortages.length > 0) {
        const byId = new Map(items.map((item) => [item.variant_id, item]));
        throw insufficientStock(
          'On-hand stock is below what this order ships',
          shortages.map((s) => ({
            field: 'items',
            message: `only ${s.available} on hand`,
            variant_public_id: byId.get(s.variantId)?.variant_public_id,
            sku: byId.get(s.variantId)?.sku,
            requested: s.requested,
            available: s.available,
          })),
        );
      }
    }

    const shipment = to === 'SHIPPED' ? { carrier: change.carrier!, trackingNumber: change.tracking_number ?? null } : undefined;
    await recordStatusChange(trx, {
      orderId: order.id,
      status: to,
      actorUserId: ctx.actor.userId,
      note: change.note ?? null,
      now,
      shipment,
      refunded: to === 'CANCELLED',
    });
    if (shipment) {
      const customer = await findUserById(trx, order.user_id);
      await enqueueEmail(trx, 'order_shipped', customer!.email, {
        order_public_id: order.public_id,
        order_number: order.order_number,
        carrier: shipment.carrier,
        tracking_number: shipment.trackingNumber,
      });
    }
    const changed = await recordStatusEvents(trx, ctx, order.public_id, order.status, to, change.note ?? null);
    if (to === 'CANCELLED') {
      // The customer is told whoever cancelled: themselves through the API, or staff in the console.
      const by = ctx.actor.userId === order.user_id ? 'customer' : 'staff';
      await enqueueEmail(trx, 'order_cancelled', changed.customer.email, orderCancelledEmail(changed, by));
    }
  }

  async function lockOrder(trx: Trx, publicId: string, userId?: number): Promise<OrderRow> {
    const order = isPublicId('ord', publicId) ? await lockOrderRow(trx, publicId, userId) : undefined;
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
      page(
        {
          status: query.status,
          search: query.search,
          customerPublicId: query.customer,
          placedFrom: query.placed_from,
          placedTo: query.placed_to,
        },
        query,
      ),

    adminGet: (publicId: string) => detail(publicId),

    /** Every matching order for a CSV export: how many, and the rows a batch at a time. */
    async adminExport(ctx: AuthedCtx, filters: OrderExportFilters) {
      const total = await countOrdersForExport(db, filters);
      await auditExport(db, ctx, 'orders', filters, total);
      return { total, batches: orderExportBatches(db, filters) };
    },

    async adminChangeStatus(ctx: AuthedCtx, publicId: string, change: OrderStatusChange): Promise<AdminOrderDetail> {
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
            after: {
              status: change.status,
              ...(change.carrier ? { carrier: change.carrier, tracking_number: change.tracking_number ?? null } : {}),
            },
          },
          reason: change.note ?? null,
        });
      });
      return detail(publicId);
    },
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
