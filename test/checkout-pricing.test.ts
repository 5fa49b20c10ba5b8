import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { checkout } from './helpers/commerce.js';
import { assertReconciles, queuedOrderEmail } from './helpers/order-emails.js';
import { cartWith, createCoupon, ok, pricing } from './helpers/orders.js';
import { useApp } from './helpers/use-app.js';

/** The order's arithmetic: shipping thresholds, coupon rounding and caps, tax, currency (the order placed by POST /orders). */

// The email worker is kept idle so queued messages keep their payloads for the checks.
const ENV = { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_CHECKOUT: '0', EMAIL_POLL_INTERVAL_MS: '600000' };
const t = useApp({ env: ENV, as: ['ADMIN'] });
/** A second service with tax, another currency and other shipping rules. */
const taxed = useApp({
  env: { ...ENV, TAX_RATE: '8.25', CURRENCY: 'EUR', SHIPPING_FLAT: '4.95', FREE_SHIPPING_FROM: '100.00' },
  as: ['ADMIN'],
});

describe('POST /orders: the order placed', () => {
  test('shipping is free from a subtotal of exactly 500.00, charged at 499.99', async () => {
    const at = await cartWith(t, t.admin, [{ price: '250.00', quantity: 2 }]);
    assert.deepEqual(pricing(ok(await checkout(at.client, at.addressId), 201)), {
      subtotal: '500.00',
      discount_total: '0.00',
      shipping_total: '0.00',
      tax_total: '0.00',
      total: '500.00',
    });
    const below = await cartWith(t, t.admin, [{ price: '499.99', quantity: 1 }]);
    assert.deepEqual(pricing(ok(await checkout(below.client, below.addressId), 201)), {
      subtotal: '499.99',
      discount_total: '0.00',
      shipping_total: '10.00',
      tax_total: '0.00',
      total: '509.99',
    });
  });

  test('PERCENTAGE 15% of 64.98 is 9.75 (9.747 rounded half up); the code matches case-insensitively', async () => {
    const coupon = await createCoupon(t.admin, {
      code: `Save15${randomBytes(3).toString('hex')}`,
      discount_type: 'PERCENTAGE',
      discount_value: '15',
    });
    const s = await cartWith(t, t.admin, [
      { price: '19.99', quantity: 3 },
      { price: '5.01', quantity: 1 },
    ]);
    const order = ok(await checkout(s.client, s.addressId, { coupon_code: `  ${coupon.code.toLowerCase()} ` }), 201);
    assert.deepEqual(pricing(order), {
      subtotal: '64.98',
      discount_total: '9.75',
      shipping_total: '10.00',
      tax_total: '0.00',
      total: '65.23',
    });
    assert.equal(order.coupon_code, coupon.code);
  });

  test('a percentage landing exactly on half a cent rounds up: 12.5% of 10.12 = 1.265 -> 1.27', async () => {
    const coupon = await createCoupon(t.admin, {
      code: `HALF${randomBytes(3).toString('hex')}`,
      discount_type: 'PERCENTAGE',
      discount_value: '12.50',
    });
    const s = await cartWith(t, t.admin, [{ price: '10.12', quantity: 1 }]);
    const order = ok(await checkout(s.client, s.addressId, { coupon_code: coupon.code }), 201);
    assert.deepEqual(pricing(order), {
      subtotal: '10.12',
      discount_total: '1.27',
      shipping_total: '10.00',
      tax_total: '0.00',
      total: '18.85',
    });
  });

  test('a percentage is capped by maximum_discount_amount; free shipping looks at the subtotal before the discount', async () => {
    const coupon = await createCoupon(t.admin, {
      code: `CAP${randomBytes(3).toString('hex')}`,
      discount_type: 'PERCENTAGE',
      discount_value: '50',
      maximum_discount_amount: '20.00',
    });
    const s = await cartWith(t, t.admin, [
      { price: '19.99', quantity: 3 },
      { price: '5.01', quantity: 1 },
    ]);
    assert.deepEqual(pricing(ok(await checkout(s.client, s.addressId, { coupon_code: coupon.code }), 201)), {
      subtotal: '64.98',
      discount_total: '20.00',
      shipping_total: '10.00',
      tax_total: '0.00',
      total: '54.98',
    });
    const big = await cartWith(t, t.admin, [{ price: '500.00', quantity: 1 }]);
    assert.deepEqual(pricing(ok(await checkout(big.client, big.addressId, { coupon_code: coupon.code }), 201)), {
      subtotal: '500.00',
      discount_total: '20.00',
      shipping_total: '0.00',
      tax_total: '0.00',
      total: '480.00',
    });
  });

  test('a FIXED_AMOUNT above the subtotal discounts exactly the subtotal; shipping is still charged', async () => {
    const coupon = await createCoupon(t.admin, {
      code: `BIG${randomBytes(3).toString('hex')}`,
      discount_type: 'FIXED_AMOUNT',
      discount_value: '100.00',
    });
    const s = await cartWith(t, t.admin, [
      { price: '19.99', quantity: 3 },
      { price: '5.01', quantity: 1 },
    ]);
    const order = ok(await checkout(s.client, s.addressId, { coupon_code: coupon.code }), 201);
    assert.deepEqual(pricing(order), {
      subtotal: '64.98',
      discount_total: '64.98',
      shipping_total: '10.00',
      tax_total: '0.00',
      total: '10.00',
    });
    const usage = await t.db
      .selectFrom('coupon_usages')
      .select('discount_amount')
      .where('order_id', '=', (eb) => eb.selectFrom('orders').select('id').where('public_id', '=', order.public_id))
      .executeTakeFirstOrThrow();
    assert.equal(usage.discount_amount, '64.98');
  });

  test('TAX_RATE 8.25 applies to subtotal minus discount, rounded half up; currency and shipping come from config', async () => {
    const plain = await cartWith(taxed, taxed.admin, [
      { price: '19.99', quantity: 3 },
      { price: '5.01', quantity: 1 },
    ]);
    assert.deepEqual(pricing(ok(await checkout(plain.client, plain.addressId), 201)), {
      subtotal: '64.98',
      discount_total: '0.00',
      shipping_total: '4.95',
      tax_total: '5.36',
      total: '75.29', // 5.36085
    });

    const coupon = await createCoupon(taxed.admin, { code: 'TAXED15', discount_type: 'PERCENTAGE', discount_value: '15' });
    const discounted = await cartWith(taxed, taxed.admin, [
      { price: '19.99', quantity: 3 },
      { price: '5.01', quantity: 1 },
    ]);
    const order = ok(await checkout(discounted.client, discounted.addressId, { coupon_code: coupon.code.toLowerCase() }), 201);
    assert.deepEqual(pricing(order), {
      subtotal: '64.98',
      discount_total: '9.75',
      shipping_total: '4.95',
      tax_total: '4.56',
      total: '64.74',
    }); // 55.23 * 8.25% = 4.556475
    assert.equal(order.currency, 'EUR');

    const half = await cartWith(taxed, taxed.admin, [{ price: '2.00', quantity: 1 }]);
    assert.deepEqual(pricing(ok(await checkout(half.client, half.addressId), 201)), {
      subtotal: '2.00',
      discount_total: '0.00',
      shipping_total: '4.95',
      tax_total: '0.17',
      total: '7.12', // 0.165 rounds up
    });
    const free = await cartWith(taxed, taxed.admin, [{ price: '100.00', quantity: 1 }]);
    assert.deepEqual(pricing(ok(await checkout(free.client, free.addressId), 201)), {
      subtotal: '100.00',
      discount_total: '0.00',
      shipping_total: '0.00',
      tax_total: '8.25',
      total: '108.25',
    });
  });

  test('the confirmation email lists the tax and free shipping, in the order currency, and adds up', async () => {
    // Free shipping is judged on the subtotal before the discount (100.00); tax on 90.00 is 7.425 -> 7.43.
    const coupon = await createCoupon(taxed.admin, {
      code: `TENOFF${randomBytes(3).toString('hex')}`,
      discount_type: 'PERCENTAGE',
      discount_value: '10',
    });
    const s = await cartWith(taxed, taxed.admin, [{ price: '100.00', quantity: 1 }]);
    const order = ok(await checkout(s.client, s.addressId, { coupon_code: coupon.code }), 201);
    assert.deepEqual(pricing(order), {
      subtotal: '100.00',
      discount_total: '10.00',
      shipping_total: '0.00',
      tax_total: '7.43',
      total: '97.43',
    });
    const email = await queuedOrderEmail(taxed, 'order_placed', order.public_id);
    assert.ok(
      email.text.includes(`Subtotal: €100.00\nDiscount (${coupon.code}): -€10.00\nShipping: Free\nTax: €7.43\nTotal: €97.43\n`),
      email.text,
    );
    assertReconciles(email.text, 'EUR');
  });
});
