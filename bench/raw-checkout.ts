import { sql } from 'kysely';
import { toLineItem } from '../src/cart/lines.js';
import { cartLines, orderedLinesRemoval } from '../src/cart/repository.js';
import { toAddressSnapshot } from '../src/addresses/schemas.js';
import { createDb } from '../src/db/database.js';
import { reserveStock } from '../src/inventory/stock-repository.js';
import { newPublicId } from '../src/lib/ids.js';
import { fromCents } from '../src/lib/money.js';
import { queuedEmailFrom } from '../src/outbox/repository.js';
import { orderEmailLines } from '../src/orders/order-emails.js';
import { insertPlacedOrder, newOrder } from '../src/orders/placement-repository.js';
import { priceOrder } from '../src/orders/pricing.js';
import type { Shopper } from './shoppers.js';
import type { Round } from './types.js';

/**
 * The checkout baseline: the checkout transaction itself, as the database
 * sees it, with nothing around it. The same statements the service runs
 * (the cart locked and read, the order with its items, history, emptied cart
 * lines and email in one statement, the stock reservation, the commit: the
 * service's own data functions, over node-postgres with the same prepared
 * statements and the service's pool size), from `connections` concurrent
 * callers, each order on a fresh prepared cart. Left out: HTTP, the session
 * and CSRF checks, the rate limiter, the address lookup (read once up front),
 * idempotency, the response. Every checkout scenario is reported as a ratio
 * to this, so a ratio near 1 means the service is at the database's limit.
 */
const RULES = { currency: 'USD', shippingFlat: '10.00', freeShippingFrom: '500.00', taxRate: '0' };
/** The service's DB_POOL_SIZE default; BENCH_RAW_POOL tries another (bench/NOTES.md, finding 28). */
const POOL_SIZE = Number(process.env.BENCH_RAW_POOL ?? 20);

export async function rawCheckout(databaseUrl: string, shoppers: Shopper[], connections: number) {
  const db = createDb(databaseUrl, POOL_SIZE);
  // Who each prepared cart belongs to, and where it ships: read once, outside the measured transactions.
  const owners = await sql<{ address_public_id: string; user_id: number; email: string; address: Record<string, unknown> }>`
    SELECT a.public_id AS address_public_id, a.user_id, u.email, to_jsonb(a) AS address
    FROM addresses a JOIN users u ON u.id = a.user_id WHERE a.public_id = ANY(${shoppers.map((s) => s.addressId)})`.execute(db);
  const byAddress = new Map(owners.rows.map((row) => [row.address_public_id, row]));
  let next = 0;

  async function placeOne(): Promise<boolean> {
    const owner = byAddress.get(shoppers[next++ % shoppers.length]!.addressId)!;
    try {
      await db.transaction().execute(async (trx) => {
        const lines = await cartLines(trx, owner.user_id).forUpdate('ci').execute();
        if (lines.length === 0) throw new Error('empty cart');
        const totals = priceOrder(
          lines.map((line) => ({ unitPrice: line.price, quantity: line.quantity })),
          0,
          RULES,
        );
        const items = lines.map(toLineItem);
        const publicId = newPublicId('ord');
        const amounts = {
          subtotal: fromCents(totals.subtotal),
          discount_total: '0.00',
          shipping_total: fromCents(totals.shipping),
          tax_total: fromCents(totals.tax),
          total: fromCents(totals.total),
        };
        const shippingAddress = toAddressSnapshot(owner.address as never);
        const order = await insertPlacedOrder(
          trx,
          {
            publicId,
            userId: owner.user_id,
            amounts,
            currency: RULES.currency,
            coupon: null,
            shippingAddress,
            paymentMethod: 'mock',
            notes: null,
            lines: lines.map((line, i) => ({ ...line, line_total: items[i]!.line_total })),
          },
          [
            orderedLinesRemoval(
              owner.user_id,
              lines.map((line) => line.variant_id),
            ),
            queuedEmailFrom(
              'order_placed',
              owner.email,
              {
                order_public_id: publicId,
                order_number: newOrder.orderNumber,
                // The same payload checkout queues: every amount, so the email's lines reconcile with its total.
                ...amounts,
                coupon_code: null,
                currency: RULES.currency,
                items: orderEmailLines(items),
                shipping_address: shippingAddress,
              },
              newOrder.rows,
            ),
          ],
        );
        const shortages = await reserveStock(
          trx,
          lines.map((line) => ({ variantId: line.variant_id, quantity: line.quantity })),
          order.id,
          owner.user_id,
        );
        if (shortages.length > 0) throw new Error('insufficient stock');
      });
      return true;
    } catch {
      return false;
    }
  }

  /** One round: `connections` callers placing orders back to back for `seconds`. */
  async function round(seconds: number): Promise<Round> {
    const latencies: number[] = [];
    let orders = 0;
    let rejected = 0;
    const started = Date.now();
    const end = started + seconds * 1000;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (Date.now() < end) {
          const t = performance.now();
          if (await placeOne()) orders++;
          else rejected++;
          latencies.push(performance.now() - t);
        }
      }),
    );
    const elapsed = (Date.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0);
    return {
      rps: (orders + rejected) / elapsed,
      p50: at(0.5),
      p99: at(0.99),
      errors: rejected,
      non2xx: 0,
      orders,
      rejected,
      ordersPerSecond: orders / elapsed,
    };
  }

  return { round, close: () => db.destroy(), used: () => next };
}
