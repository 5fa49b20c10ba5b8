import { type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Executor } from '../db/database.js';
import type { Database, OrderRow, OrdersTable } from '../db/schema.js';
import { type PageRequest, type Sort } from '../lib/pagination.js';
import { containsPattern, keyIn, paged } from '../lib/sql.js';
import type { AddressSnapshot } from '../addresses/schemas.js';
import type { AdminOrder, Order, OrderSortField, OrderStatus } from './schemas.js';

/** Order reads: a page of orders, then the items and history of exactly those orders. */

export interface OrderFilters {
  userId?: number | undefined;
  status?: OrderStatus | undefined;
  search?: string | undefined;
  placedFrom?: string | undefined;
  placedTo?: string | undefined;
  /** A customer by public ID (admin list); an unknown ID matches nothing. */
  customerPublicId?: string | undefined;
}

/** The list's filters as one condition; the customer's email is only consulted when searching. */
function matches(f: OrderFilters) {
  return (eb: ExpressionBuilder<Database & { o: OrdersTable }, 'o'>) => {
    const parts: Expression<SqlBool>[] = [];
    if (f.userId !== undefined) parts.push(eb('o.user_id', '=', f.userId));
    if (f.customerPublicId !== undefined) {
      parts.push(eb('o.user_id', '=', eb.selectFrom('users as cu').select('cu.id').where('cu.public_id', '=', f.customerPublicId)));
    }
    if (f.status) parts.push(eb('o.status', '=', f.status));
    if (f.placedFrom) parts.push(eb('o.placed_at', '>=', new Date(f.placedFrom)));
    if (f.placedTo) parts.push(eb('o.placed_at', '<', new Date(f.placedTo)));
    if (f.search) {
      // Matches from two trigram indexes: order number and customer email.
      const pattern = containsPattern(f.search);
      const ids = eb
        .selectFrom('orders as byno')
        .select('byno.id')
        .where('byno.order_number', 'ilike', pattern)
        .unionAll(
          eb
            .selectFrom('orders as bymail')
            .innerJoin('users as su', 'su.id', 'bymail.user_id')
            .select('bymail.id')
            .where('su.email', 'ilike', pattern),
        );
      parts.push(keyIn('o.id', ids));
    }
    return eb.and(parts);
  };
}

const SORT_COLUMNS = { placed_at: 'o.placed_at', total: 'o.total' } as const;

/** One statement: the page (customer joined for its 20 rows only) and the filtered total as a scalar count. */
export function listOrderRows(db: Executor, filters: OrderFilters, sort: Sort<OrderSortField>, page: PageRequest) {
  return db
    .selectFrom('orders as o')
    .innerJoin('users as u', 'u.id', 'o.user_id')
    .selectAll('o')
    .select(['u.public_id as customer_public_id', 'u.email as customer_email'])
    .select(
      db
        .selectFrom('orders as o')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(matches(filters))
        .as('total_count'),
    )
    .where(matches(filters))
    .orderBy(SORT_COLUMNS[sort.field], sort.direction)
    .orderBy('o.public_id', sort.direction)
    .$call(paged(page))
    .execute();
}

export async function countOrders(db: Executor, filters: OrderFilters): Promise<number> {
  return (
    await db
      .selectFrom('orders as o')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(matches(filters))
      .executeTakeFirstOrThrow()
  ).n;
}

export function findOrderRow(db: Executor, publicId: string, userId?: number) {
  return db
    .selectFrom('orders as o')
    .innerJoin('users as u', 'u.id', 'o.user_id')
    .selectAll('o')
    .select(['u.public_id as customer_public_id', 'u.email as customer_email'])
    .where('o.public_id', '=', publicId)
    .where(matches({ userId }))
    .executeTakeFirst();
}

export type OrderWithCustomer = OrderRow & { customer_public_id: string; customer_email: string };

/** Items and status history of a set of orders: two statements, whatever the count. */
export async function orderDetails(db: Executor, orderIds: number[]) {
  if (orderIds.length === 0) return { items: [], history: [] };
  const [items, history] = await Promise.all([
    db
      .selectFrom('order_items as oi')
      .innerJoin('variants as v', 'v.id', 'oi.variant_id')
      .innerJoin('products as p', 'p.id', 'oi.product_id')
      .select([
        'oi.order_id',
        'oi.product_name',
        'oi.sku',
        'oi.options',
        'oi.unit_price',
        'oi.quantity',
        'oi.line_total',
        'v.public_id as variant_public_id',
        'p.public_id as product_public_id',
      ])
      .where('oi.order_id', 'in', orderIds)
      .orderBy('oi.order_id')
      .orderBy('oi.id')
      .execute(),
    db
      .selectFrom('order_status_history as h')
      .leftJoin('users as u', 'u.id', 'h.actor_user_id')
      .select(['h.order_id', 'h.status', 'h.created_at', 'h.note', 'u.public_id as actor_public_id', 'u.role as actor_role'])
      .where('h.order_id', 'in', orderIds)
      .orderBy('h.order_id')
      .orderBy('h.id')
      .execute(),
  ]);
  return { items, history };
}

type Details = Awaited<ReturnType<typeof orderDetails>>;

export function toOrders(rows: OrderWithCustomer[], details: Details): AdminOrder[] {
  const group = <T extends { order_id: number }>(list: T[]) => {
    const map = new Map<number, T[]>();
    for (const item of list) map.set(item.order_id, [...(map.get(item.order_id) ?? []), item]);
    return map;
  };
  const items = group(details.items);
  const history = group(details.history);
  return rows.map((o) => ({
    public_id: o.public_id,
    order_number: o.order_number,
    status: o.status,
    items: (items.get(o.id) ?? []).map((i) => ({
      variant_public_id: i.variant_public_id,
      product_public_id: i.product_public_id,
      product_name: i.product_name,
      sku: i.sku,
      options: i.options,
      unit_price: i.unit_price,
      quantity: i.quantity,
      line_total: i.line_total,
    })),
    subtotal: o.subtotal,
    discount_total: o.discount_total,
    shipping_total: o.shipping_total,
    tax_total: o.tax_total,
    total: o.total,
    currency: o.currency,
    coupon_code: o.coupon_code,
    shipping_address: o.shipping_address as AddressSnapshot,
    payment: { method: o.payment_method, status: o.payment_status },
    notes: o.notes,
    shipment: o.carrier ? { carrier: o.carrier, tracking_number: o.tracking_number } : null,
    status_history: (history.get(o.id) ?? []).map((h) => ({
      status: h.status,
      at: h.created_at.toISOString(),
      by: h.actor_public_id && h.actor_role ? { public_id: h.actor_public_id, role: h.actor_role } : null,
      note: h.note,
    })),
    placed_at: o.placed_at.toISOString(),
    updated_at: o.updated_at.toISOString(),
    customer: { public_id: o.customer_public_id, email: o.customer_email },
  }));
}

/** The customer's view drops the customer block (it is them). */
export const toCustomerOrder = ({ customer: _customer, ...order }: AdminOrder): Order => order;

/** An order row locked for a status change; `userId` limits it to one customer's orders. */
export function lockOrder(db: Executor, publicId: string, userId?: number): Promise<OrderRow | undefined> {
  let query = db.selectFrom('orders').selectAll().where('public_id', '=', publicId);
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  return query.forUpdate().executeTakeFirst();
}

/** An order's lines as its stock effects need them, with the keys a shortage names. */
export function orderStockLines(db: Executor, orderId: number) {
  return db
    .selectFrom('order_items as oi')
    .innerJoin('variants as v', 'v.id', 'oi.variant_id')
    .select(['oi.variant_id', 'oi.quantity', 'v.public_id as variant_public_id', 'v.sku'])
    .where('oi.order_id', '=', orderId)
    .execute();
}

/** Moves an order to `status` (with the shipment or the refund that goes with it) and appends the history entry. */
export async function recordStatusChange(
  db: Executor,
  change: {
    orderId: number;
    status: OrderStatus;
    actorUserId: number;
    note: string | null;
    now: Date;
    shipment?: { carrier: string; trackingNumber: string | null };
    refunded?: boolean;
  },
): Promise<void> {
  await db
    .updateTable('orders')
    .set({
      status: change.status,
      updated_at: change.now,
      ...(change.shipment ? { carrier: change.shipment.carrier, tracking_number: change.shipment.trackingNumber } : {}),
      ...(change.refunded ? { payment_status: 'REFUNDED' } : {}),
    })
    .where('id', '=', change.orderId)
    .execute();
  await db
    .insertInto('order_status_history')
    .values({ order_id: change.orderId, status: change.status, actor_user_id: change.actorUserId, note: change.note })
    .execute();
}
