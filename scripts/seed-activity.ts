/**
 * Demo activity for `npm run seed`: orders over the last four weeks in every state, a coupon,
 * reviews (most published, some waiting for moderation) and expenses, so the storefront and the
 * console's dashboard, lists and P&L have something to show. Everything goes through the real API
 * (scripts/seed-api.ts, driven by @commerce/client), so stock, reservations and history stay
 * consistent; only the order dates are moved back afterwards. Runs once: a store that has orders is
 * left alone.
 */
import { sql } from 'kysely';
import type { Api } from '../packages/client/src/index.js';
import type { Db } from '../src/db/database.js';
import type { SeedApi } from './seed-api.js';
import { seedReviews } from './seed-reviews.js';

const DAY = 86_400_000;

export async function seedActivity(seedApi: SeedApi, db: Db, password: string): Promise<{ orders: number; reviews: number } | null> {
  const existing = await sql<{ n: number }>`SELECT count(*)::int AS n FROM orders`.execute(db);
  if ((existing.rows[0]?.n ?? 0) > 0) return null;
  const signedIn = (email: string) => seedApi.signedIn(email, password);
  const admin = await signedIn('admin@demo.store');
  await admin.POST('/api/v1/admin/coupons', {
    body: { code: 'WELCOME10', discount_type: 'PERCENTAGE', discount_value: '10.00', usage_limit_per_user: 1 },
  });

  // Variants that are on sale with plenty of stock, in a fixed order so every seed is the same store.
  const variants = await sql<{ variant: string; product: string }>`
    SELECT v.public_id AS variant, p.public_id AS product
    FROM variants v JOIN products p ON p.id = v.product_id JOIN inventory i ON i.variant_id = v.id
    WHERE p.status = 'ACTIVE' AND v.status = 'ACTIVE' AND v.deleted_at IS NULL AND p.deleted_at IS NULL
      AND i.quantity_on_hand - i.quantity_reserved >= 20
    ORDER BY v.id LIMIT 40`.execute(db);
  if (variants.rows.length === 0) return { orders: 0, reviews: 0 };

  const placed: { id: string; product: string; customer: Api }[] = [];
  const customers: Api[] = [];
  for (let c = 1; c <= 10; c++) {
    const customer = await signedIn(`customer${c}@demo.store`);
    customers.push(customer);
    const addresses = await customer.GET('/api/v1/users/me/addresses');
    const addressId = addresses.data[0]?.public_id;
    if (!addressId) continue;
    for (let n = 0; n < 1 + (c % 3); n++) {
      const lines = 1 + ((c + n) % 3);
      for (let l = 0; l < lines; l++) {
        const pick = variants.rows[(c * 7 + n * 5 + l * 3) % variants.rows.length]!;
        await customer.POST('/api/v1/cart/items', { body: { variant_public_id: pick.variant, quantity: 1 + ((c + l) % 2) } });
      }
      const order = await customer.POST('/api/v1/orders', {
        body: { address_public_id: addressId, payment_method: 'mock', ...(n === 0 && c % 4 === 0 ? { coupon_code: 'welcome10' } : {}) },
      });
      placed.push({ id: order.data.public_id, product: order.data.items[0]!.product_public_id, customer });
    }
  }

  // Oldest first: the older an order, the further along it is; a few recent ones wait for staff.
  for (const [index, order] of placed.entries()) {
    const age = placed.length - index;
    const path = { order_public_id: order.id };
    if (index % 9 === 4) {
      await admin.PATCH('/api/v1/admin/orders/{order_public_id}', {
        params: { path },
        body: { status: 'CANCELLED', note: 'Customer asked to cancel' },
      });
      continue;
    }
    if (age <= 4) continue;
    await admin.PATCH('/api/v1/admin/orders/{order_public_id}', { params: { path }, body: { status: 'CONFIRMED' } });
    if (age <= 8) continue;
    await admin.PATCH('/api/v1/admin/orders/{order_public_id}', {
      params: { path },
      body: {
        status: 'SHIPPED',
        carrier: ['DHL', 'UPS', 'FedEx'][index % 3]!,
        tracking_number: `TRK${String(100_000 + index * 7919).slice(0, 6)}`,
      },
    });
    if (age <= 12) continue;
    await admin.PATCH('/api/v1/admin/orders/{order_public_id}', { params: { path }, body: { status: 'FULFILLED' } });
  }

  // Spread over the last four weeks, oldest first; the history moves with its order.
  for (const [index, order] of placed.entries()) {
    const back = Math.round(((placed.length - 1 - index) / Math.max(placed.length - 1, 1)) * 27 * DAY + (index % 5) * 3_600_000);
    await sql`
      WITH moved AS (
        UPDATE orders SET placed_at = placed_at - ${back} * interval '1 millisecond', updated_at = updated_at - ${back} * interval '1 millisecond'
        WHERE public_id = ${order.id} RETURNING id
      )
      UPDATE order_status_history SET created_at = created_at - ${back} * interval '1 millisecond' WHERE order_id IN (SELECT id FROM moved)`.execute(
      db,
    );
  }

  const reviews = await seedReviews(db, admin, customers);

  // Three months of running costs for the P&L.
  const now = new Date();
  for (let m = 0; m < 3; m++) {
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - m, 1)).toISOString().slice(0, 10);
    for (const [description, category, amount] of [
      ['Warehouse rent', 'RENT', '1200.00'],
      ['Shop software subscription', 'SOFTWARE', '49.00'],
      ['Social media ads', 'MARKETING', `${250 + m * 40}.00`],
    ] as const) {
      await admin.POST('/api/v1/admin/expenses', { body: { description, category, amount, spent_at: month } });
    }
  }
  return { orders: placed.length, reviews };
}
