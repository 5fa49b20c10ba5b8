import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { RunningApp } from './app.js';
import type { Client, Response } from './client.js';
import { checkout, inventoryOf, sellableVariant, shopper } from './commerce.js';
import { auditRows } from './inspect.js';

/** Cart, checkout, order and coupon test helpers: setup over HTTP, state read from the database. */

export const API = '/api/v1';

/** Asserts a status (showing the body when it differs) and returns `data`. */
export function ok(response: Response, status = 200) {
  assert.equal(response.status, status, `expected ${status}, got ${response.status}: ${response.text}`);
  return response.body?.data;
}

/** Asserts an error status and code, and returns the error. */
export function fails(response: Response, status: number, code: string) {
  assert.equal(response.status, status, `expected ${status}, got ${response.status}: ${response.text}`);
  assert.equal(response.body?.success, false, response.text);
  assert.equal(response.body.error.code, code, response.text);
  assert.equal(typeof response.body.request_id, 'string');
  return response.body.error as { code: string; message: string; details?: any[] };
}

export async function createCoupon(admin: Client, body: Record<string, unknown>) {
  return ok(await admin.post(`${API}/admin/coupons`, { discount_type: 'FIXED_AMOUNT', discount_value: '1.00', ...body }), 201);
}

/** The five pricing fields of an order, for comparing its arithmetic in one assertion. */
export const PRICING = ['subtotal', 'discount_total', 'shipping_total', 'tax_total', 'total'] as const;
export const pricing = (order: any) => Object.fromEntries(PRICING.map((k) => [k, order[k]]));

/** A shopper with one fresh variant per line (price, stock) in the cart. */
export async function cartWith(app: RunningApp, staff: Client, lines: { price: string; quantity: number; stock?: number }[]) {
  const variantIds: string[] = [];
  for (const line of lines) variantIds.push((await sellableVariant(staff, { price: line.price, stock: line.stock ?? 100 })).variantId);
  const s = await shopper(
    app,
    lines.map((line, i) => ({ variantId: variantIds[i]!, quantity: line.quantity })),
  );
  return { ...s, variantIds };
}

export const internalUserId = async (t: RunningApp, publicId: string) =>
  (await t.db.selectFrom('users').select('id').where('public_id', '=', publicId).executeTakeFirstOrThrow()).id;

/**
 * Everything a checkout may touch for one account: its orders, cart, the
 * inventory of the given variants, their movements, the coupon's counters and
 * the outbox. Two equal snapshots prove a rejected request changed nothing.
 */
export async function checkoutState(t: RunningApp, userPublicId: string, variantIds: string[], couponPublicId?: string) {
  const user = await t.db.selectFrom('users').select(['id', 'email']).where('public_id', '=', userPublicId).executeTakeFirstOrThrow();
  const userId = user.id;
  const orders = await t.db.selectFrom('orders').select(['public_id', 'status']).where('user_id', '=', userId).orderBy('id').execute();
  const cart = await t.db
    .selectFrom('cart_items')
    .select(['variant_id', 'quantity'])
    .where('user_id', '=', userId)
    .orderBy('variant_id')
    .execute();
  const inventory = await Promise.all(variantIds.map((v) => inventoryOf(t, v)));
  const movements = await t.db
    .selectFrom('inventory_movements')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  const outbox = await t.db.selectFrom('outbox').select('kind').where('recipient', '=', user.email).orderBy('id').execute();
  const usages = await t.db
    .selectFrom('coupon_usages')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const coupon = couponPublicId
    ? await t.db
        .selectFrom('coupons')
        .select(['times_used', 'updated_at'])
        .where('public_id', '=', couponPublicId)
        .executeTakeFirstOrThrow()
    : null;
  return { orders, cart, inventory, movements: Number(movements.n), outbox: outbox.map((e) => e.kind), usages: Number(usages.n), coupon };
}

/**
 * A customer who placed one order of the given lines (fresh variants with
 * the given prices and stock). Returns the order as checkout answered it.
 */
export async function placedOrder(
  t: RunningApp,
  admin: Client,
  lines: { price?: string; stock?: number; quantity: number }[] = [{ quantity: 1 }],
  extra: Record<string, unknown> = {},
) {
  const variants: string[] = [];
  for (const line of lines)
    variants.push((await sellableVariant(admin, { price: line.price ?? '10.00', stock: line.stock ?? 100 })).variantId);
  const s = await shopper(
    t,
    lines.map((line, i) => ({ variantId: variants[i]!, quantity: line.quantity })),
  );
  const order = ok(await checkout(s.client, s.addressId, extra), 201);
  return { ...s, order, variantIds: variants };
}

/** Movement rows of a variant written by orders, oldest first, as the admin API lists them. */
export async function orderMovements(admin: Client, variantId: string) {
  const list = ok(await admin.get(`${API}/admin/inventory/${variantId}/movements?limit=100`));
  return (list as any[])
    .filter((m) => String(m.kind).startsWith('ORDER_'))
    .reverse()
    .map((m) => ({ kind: m.kind, delta_on_hand: m.delta_on_hand, delta_reserved: m.delta_reserved, order_public_id: m.order_public_id }));
}

export type OrderStatus = 'PLACED' | 'CONFIRMED' | 'SHIPPED' | 'FULFILLED' | 'CANCELLED';
export const ORDER_STATUSES: OrderStatus[] = ['PLACED', 'CONFIRMED', 'SHIPPED', 'FULFILLED', 'CANCELLED'];
/** The admin moves that take a placed order to each status. */
const PATH: Record<OrderStatus, Record<string, unknown>[]> = {
  PLACED: [],
  CONFIRMED: [{ status: 'CONFIRMED' }],
  SHIPPED: [{ status: 'CONFIRMED' }, { status: 'SHIPPED', carrier: 'UPS', tracking_number: '1Z999' }],
  FULFILLED: [{ status: 'CONFIRMED' }, { status: 'SHIPPED', carrier: 'UPS' }, { status: 'FULFILLED' }],
  CANCELLED: [{ status: 'CANCELLED' }],
};

/** PATCH /admin/orders/{ord} as `admin`. */
export const moveOrder = (admin: Client, order: string, body: Record<string, unknown>) => admin.patch(`${API}/admin/orders/${order}`, body);
/** A well-formed order ID nobody has. */
export const unknownOrderId = () => `ord_${randomBytes(12).toString('base64url')}`;

/** A placed order of 3 units (stock 10), moved by `admin` to `status`. */
export async function orderIn(t: RunningApp, admin: Client, status: OrderStatus, extra: Record<string, unknown> = {}) {
  const placed = await placedOrder(t, admin, [{ quantity: 3, stock: 10, price: '10.00' }], extra);
  for (const body of PATH[status]) ok(await moveOrder(admin, placed.order.public_id, body));
  return { ...placed, orderId: placed.order.public_id as string, variantId: placed.variantIds[0]! };
}

/** Everything a status change may touch (movements as `admin` reads them). */
export async function orderState(t: RunningApp, admin: Client, orderId: string, variantId: string) {
  const order = await t.db.selectFrom('orders').selectAll().where('public_id', '=', orderId).executeTakeFirstOrThrow();
  const count = async (table: 'order_status_history' | 'coupon_usages') =>
    (
      await t.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('order_id', '=', order.id)
        .executeTakeFirstOrThrow()
    ).n;
  const released = await t.db.selectFrom('coupon_usages').select('released_at').where('order_id', '=', order.id).execute();
  const coupons = await t.db.selectFrom('coupons').select(['public_id', 'times_used']).orderBy('id').execute();
  const customer = await t.db.selectFrom('users').select('email').where('id', '=', order.user_id).executeTakeFirstOrThrow();
  const outbox = await t.db.selectFrom('outbox').select(['kind']).where('recipient', '=', customer.email).orderBy('id').execute();
  return {
    order,
    history: await count('order_status_history'),
    usages: released,
    coupons,
    inventory: await inventoryOf(t, variantId),
    movements: (await orderMovements(admin, variantId)).length,
    outbox: outbox.map((e) => e.kind),
    audit: (await auditRows(t, 'order.status_change', orderId)).length,
  };
}
