import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { checkout } from './helpers/commerce.js';
import { inventoryOf } from './helpers/commerce.js';
import { API, cartWith, createCoupon, fails, ok, pricing } from './helpers/orders.js';
import { useApp } from './helpers/use-app.js';

/**
 * GET /cart/quote: what POST /orders would charge now, shown before the
 * shopper commits. The quote is checkout's own arithmetic (the placed order
 * must come out the same), refuses a coupon as checkout would, and reserves
 * or uses nothing.
 */
const t = useApp({
  env: { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_CHECKOUT: '0', TAX_RATE: '8.25', SHIPPING_FLAT: '4.95', FREE_SHIPPING_FROM: '100.00' },
  as: ['ADMIN'],
});
const code = (prefix: string) => `${prefix}${randomBytes(3).toString('hex')}`.toUpperCase();
const quote = (client: { get: (path: string) => Promise<any> }, coupon?: string) =>
  client.get(`${API}/cart/quote${coupon ? `?coupon_code=${encodeURIComponent(coupon)}` : ''}`);

describe('GET /cart/quote', () => {
  test('comes out as the order placed from the same cart, with and without a coupon, either side of free shipping', async () => {
    const percent = await createCoupon(t.admin, { code: code('SAVE'), discount_type: 'PERCENTAGE', discount_value: '12.5' });
    const fixed = await createCoupon(t.admin, { code: code('OFF'), discount_type: 'FIXED_AMOUNT', discount_value: '30.00' });
    for (const [lines, coupon] of [
      [[{ price: '19.99', quantity: 3 }], undefined],
      [
        [
          { price: '19.99', quantity: 3 },
          { price: '5.01', quantity: 1 },
        ],
        percent.code.toLowerCase(),
      ],
      [[{ price: '60.00', quantity: 2 }], fixed.code],
      [[{ price: '10.12', quantity: 1 }], percent.code],
    ] as const) {
      const cart = await cartWith(t, t.admin, [...lines]);
      const quoted = ok(await quote(cart.client, coupon));
      const order = ok(await checkout(cart.client, cart.addressId, coupon ? { coupon_code: coupon } : {}), 201);
      assert.deepEqual(pricing(quoted), pricing(order), JSON.stringify({ lines, coupon }));
      assert.equal(quoted.coupon_code, order.coupon_code);
      assert.equal(quoted.currency, order.currency);
      assert.equal(
        quoted.item_count,
        lines.reduce((sum, line) => sum + line.quantity, 0),
      );
    }
  });

  test('refuses a coupon as checkout would, names it in words, and reserves or uses nothing', async () => {
    const cart = await cartWith(t, t.admin, [{ price: '40.00', quantity: 2, stock: 5 }]);
    const unknown = fails(await quote(cart.client, 'NO-SUCH-CODE'), 400, 'INVALID_COUPON');
    assert.match(unknown.message, /unknown code/);
    const minimum = await createCoupon(t.admin, { code: code('BIG'), minimum_order_amount: '500.00' });
    fails(await quote(cart.client, minimum.code), 400, 'INVALID_COUPON');
    const once = await createCoupon(t.admin, { code: code('ONCE'), usage_limit: 1 });
    for (let i = 0; i < 3; i++) ok(await quote(cart.client, once.code));
    const coupon = ok(await t.admin.get(`${API}/admin/coupons/${once.public_id}`));
    assert.equal(coupon.times_used, 0, 'a quote uses nothing');
    assert.equal((await inventoryOf(t, cart.variantIds[0]!)).quantity_reserved, 0, 'a quote reserves nothing');
    const used = await cartWith(t, t.admin, [{ price: '40.00', quantity: 1 }]);
    ok(await checkout(used.client, used.addressId, { coupon_code: once.code }), 201);
    fails(await quote(cart.client, once.code), 409, 'COUPON_EXHAUSTED');
  });

  test('an empty cart is quoted at zero with no shipping; signed out is 401; a coupon code over 50 characters is 400', async () => {
    const cart = await cartWith(t, t.admin, []);
    assert.deepEqual(pricing(ok(await quote(cart.client))), {
      subtotal: '0.00',
      discount_total: '0.00',
      shipping_total: '4.95',
      tax_total: '0.00',
      total: '4.95',
    });
    fails(await t.anonymous.get(`${API}/cart/quote`), 401, 'UNAUTHENTICATED');
    fails(await quote(cart.client, 'X'.repeat(51)), 400, 'VALIDATION_ERROR');
  });
});

describe('GET /cart/quote and the checkout limit', () => {
  const limited = useApp({ env: { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_CHECKOUT: '3/1m' }, as: ['ADMIN'] });

  test('a quote trying a coupon code costs a checkout try (guessing codes is no cheaper); one without a code costs nothing', async () => {
    const cart = await cartWith(limited, limited.admin, [{ price: '10.00', quantity: 1 }]);
    for (let i = 0; i < 5; i++) ok(await quote(cart.client));
    for (let i = 0; i < 3; i++) fails(await quote(cart.client, `GUESS${i}`), 400, 'INVALID_COUPON');
    const refused = await quote(cart.client, 'GUESS3');
    fails(refused, 429, 'RATE_LIMITED');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    ok(await quote(cart.client));
    fails(await checkout(cart.client, cart.addressId), 429, 'RATE_LIMITED');
  });
});
