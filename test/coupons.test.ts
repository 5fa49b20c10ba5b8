import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { checkout, sellableVariant, shopper } from './helpers/commerce.js';
import { signUp } from './helpers/factories.js';
import { auditRows } from './helpers/inspect.js';
import { API, checkoutState, createCoupon, fails, ok } from './helpers/orders.js';
import { useApp } from './helpers/use-app.js';

let variantId: string;
const t = useApp({
  env: { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_CHECKOUT: '0', EMAIL_POLL_INTERVAL_MS: '600000' },
  as: ['ADMIN'],
  async seed(t) {
    variantId = (await sellableVariant(t.admin, { price: '20.00', stock: 1000 })).variantId;
  },
});

const COUPONS = `${API}/admin/coupons`;
const HOUR = 3_600_000;
/** An instant relative to the service clock (which tests move forward). */
const inHours = (hours: number) => new Date(t.clock.now().getTime() + hours * HOUR).toISOString();
const code = (label = 'C') => `${label}${randomBytes(4).toString('hex')}`.toUpperCase();
const statusOf = async (id: string) => ok(await t.admin.get(`${COUPONS}/${id}`)).status;

/** A customer with `quantity` units of the 20.00 variant in the cart. */
const buyer = (quantity = 1) => shopper(t, [{ variantId, quantity }]);
const buy = async (couponCode: string, quantity = 1) => {
  const s = await buyer(quantity);
  return ok(await checkout(s.client, s.addressId, { coupon_code: couponCode }), 201);
};

describe('admin coupons: create and validate', () => {
  test('POST 201 stores the code upper-case with every field; GET returns the same; an audit entry is written', async () => {
    const starts = inHours(-1);
    const expires = inHours(24 * 30);
    const raw = `summer-sale_${randomBytes(3).toString('hex')}`;
    const created = ok(
      await t.admin.post(COUPONS, {
        code: raw,
        discount_type: 'PERCENTAGE',
        discount_value: '12.5',
        minimum_order_amount: '50',
        maximum_discount_amount: '25.00',
        usage_limit: 100,
        usage_limit_per_user: 2,
        starts_at: starts,
        expires_at: expires,
      }),
      201,
    );
    const { public_id, created_at, updated_at, ...rest } = created;
    assert.match(public_id, /^cpn_[A-Za-z0-9_-]{16,}$/);
    assert.deepEqual(rest, {
      code: raw.toUpperCase(),
      discount_type: 'PERCENTAGE',
      discount_value: '12.50',
      minimum_order_amount: '50.00',
      maximum_discount_amount: '25.00',
      usage_limit: 100,
      usage_limit_per_user: 2,
      starts_at: starts,
      expires_at: expires,
      is_active: true,
      status: 'ACTIVE',
      times_used: 0,
    });
    assert.equal(created_at, updated_at);
    assert.deepEqual(ok(await t.admin.get(`${COUPONS}/${public_id}`)), created);
    const row = await t.db.selectFrom('coupons').select('code').where('public_id', '=', public_id).executeTakeFirstOrThrow();
    assert.equal(row.code, raw.toUpperCase());
    assert.equal((await auditRows(t, 'coupon.create', public_id)).length, 1);

    const minimal = await createCoupon(t.admin, { code: code() });
    assert.deepEqual(
      [
        minimal.minimum_order_amount,
        minimal.maximum_discount_amount,
        minimal.usage_limit,
        minimal.starts_at,
        minimal.expires_at,
        minimal.is_active,
      ],
      [null, null, null, null, null, true],
    );
  });

  test('a duplicate code is 409 whatever its case; only one coupon exists', async () => {
    const first = await createCoupon(t.admin, { code: code('DUP') });
    fails(
      await t.admin.post(COUPONS, { code: first.code.toLowerCase(), discount_type: 'FIXED_AMOUNT', discount_value: '5.00' }),
      409,
      'CODE_TAKEN',
    );
    const rows = await t.db.selectFrom('coupons').select('id').where('code', '=', first.code).execute();
    assert.equal(rows.length, 1);
  });

  test('code bounds: 3 and 50 characters pass; 2, 51 and characters outside [A-Za-z0-9_-] are 400', async () => {
    assert.equal((await createCoupon(t.admin, { code: 'z9_' })).code, 'Z9_');
    const fifty = `F${randomBytes(30).toString('hex')}`.slice(0, 50);
    assert.equal((await createCoupon(t.admin, { code: fifty })).code, fifty.toUpperCase());
    const before = await t.db.selectFrom('coupons').select('id').execute();
    for (const bad of ['AB', `G${'x'.repeat(50)}`, 'HAS SPACE', 'DOT.TED', 'ÜMLAUT', '', 'PCT%']) {
      const error = fails(
        await t.admin.post(COUPONS, { code: bad, discount_type: 'FIXED_AMOUNT', discount_value: '1.00' }),
        400,
        'VALIDATION_ERROR',
      );
      assert.ok(
        error.details?.some((d) => d.field === 'code'),
        JSON.stringify(error),
      );
    }
    assert.equal((await t.db.selectFrom('coupons').select('id').execute()).length, before.length);
  });

  test('values: 0, negative and 3-decimal discounts, PERCENTAGE above 100, expiry not after start, unknown fields are 400', async () => {
    const base = { discount_type: 'FIXED_AMOUNT', discount_value: '5.00' };
    const before = (await t.db.selectFrom('coupons').select('id').execute()).length;
    for (const body of [
      { ...base, discount_value: '0' },
      { ...base, discount_value: '0.00' },
      { ...base, discount_value: '-1.00' },
      { ...base, discount_value: '1.999' },
      { ...base, discount_value: 5 },
      { discount_type: 'PERCENTAGE', discount_value: '100.01' },
      { ...base, discount_type: 'PERCENT' },
      { ...base, starts_at: inHours(2), expires_at: inHours(1) },
      { ...base, starts_at: inHours(1), expires_at: inHours(1) },
      { ...base, expires_at: 'tomorrow' },
      { ...base, usage_limit: 0 },
      { ...base, usage_limit_per_user: 1.5 },
      { ...base, minimum_order_amount: '-5.00' },
      { discount_type: 'PERCENTAGE', discount_value: '10', maximum_discount_amount: '0' },
      { discount_type: 'PERCENTAGE', discount_value: '10', maximum_discount_amount: '0.00' },
      { ...base, times_used: 3 },
      { ...base, status: 'ACTIVE' },
      { discount_value: '5.00' },
    ]) {
      fails(await t.admin.post(COUPONS, { code: code(), ...body }), 400, 'VALIDATION_ERROR');
    }
    assert.equal((await t.db.selectFrom('coupons').select('id').execute()).length, before);
    assert.equal(
      (await createCoupon(t.admin, { code: code(), discount_type: 'PERCENTAGE', discount_value: '100' })).discount_value,
      '100.00',
    );
    assert.equal((await createCoupon(t.admin, { code: code(), discount_value: '150.00' })).discount_value, '150.00');
  });
});

describe('admin coupons: status, edit, delete, usages', () => {
  test('derived status: INACTIVE, SCHEDULED, EXPIRED, EXHAUSTED, ACTIVE, following the service clock', async () => {
    const active = await createCoupon(t.admin, { code: code(), starts_at: inHours(-1), expires_at: inHours(48) });
    const inactive = await createCoupon(t.admin, { code: code(), is_active: false });
    const scheduled = await createCoupon(t.admin, { code: code(), starts_at: inHours(1) });
    const expiring = await createCoupon(t.admin, { code: code(), expires_at: inHours(1) });
    const expired = await createCoupon(t.admin, { code: code(), expires_at: inHours(-1) });
    const inactiveAndExpired = await createCoupon(t.admin, { code: code(), expires_at: inHours(-1), is_active: false });
    const single = await createCoupon(t.admin, { code: code(), usage_limit: 1 });
    assert.deepEqual(
      [active.status, inactive.status, scheduled.status, expiring.status, expired.status, inactiveAndExpired.status, single.status],
      ['ACTIVE', 'INACTIVE', 'SCHEDULED', 'ACTIVE', 'EXPIRED', 'INACTIVE', 'ACTIVE'],
    );

    await buy(single.code);
    assert.equal(await statusOf(single.public_id), 'EXHAUSTED');
    assert.equal(ok(await t.admin.get(`${COUPONS}/${single.public_id}`)).times_used, 1);

    t.clock.advance(2 * HOUR);
    assert.equal(await statusOf(scheduled.public_id), 'ACTIVE');
    assert.equal(await statusOf(expiring.public_id), 'EXPIRED');
    assert.equal(await statusOf(active.public_id), 'ACTIVE');
    const listed = ok(await t.admin.get(`${COUPONS}?search=${expiring.code.toLowerCase()}`)) as any[];
    assert.deepEqual(
      listed.map((c) => [c.public_id, c.status]),
      [[expiring.public_id, 'EXPIRED']],
    );
  });

  test('PATCH edits, re-derives status and checks the merged coupon; bad patches are 400/404/409 and change nothing', async () => {
    const coupon = await createCoupon(t.admin, { code: code('EDIT'), discount_value: '150.00' });
    const other = await createCoupon(t.admin, { code: code('OTHER') });
    const patch = (id: string, body: unknown) => t.admin.patch(`${COUPONS}/${id}`, body);

    const edited = ok(await patch(coupon.public_id, { discount_value: '7.25', is_active: false, minimum_order_amount: '30' }));
    assert.deepEqual(
      [edited.discount_value, edited.is_active, edited.status, edited.minimum_order_amount, edited.code],
      ['7.25', false, 'INACTIVE', '30.00', coupon.code],
    );
    assert.ok(edited.updated_at > coupon.updated_at);
    const stored = ok(await t.admin.get(`${COUPONS}/${coupon.public_id}`));
    assert.deepEqual(stored, edited);

    fails(await patch(coupon.public_id, { discount_type: 'PERCENTAGE', discount_value: '101' }), 400, 'VALIDATION_ERROR');
    ok(await patch(coupon.public_id, { discount_value: '150.00' }));
    fails(await patch(coupon.public_id, { discount_type: 'PERCENTAGE' }), 400, 'VALIDATION_ERROR'); // 150 % once merged
    ok(await patch(coupon.public_id, { starts_at: inHours(5) }));
    fails(await patch(coupon.public_id, { expires_at: inHours(4) }), 400, 'VALIDATION_ERROR'); // before the stored start
    const unchanged = ok(await t.admin.get(`${COUPONS}/${coupon.public_id}`));
    fails(await patch(coupon.public_id, {}), 400, 'VALIDATION_ERROR');
    fails(await patch(coupon.public_id, { maximum_discount_amount: '0.00' }), 400, 'VALIDATION_ERROR');
    fails(await patch(coupon.public_id, { colour: 'red' }), 400, 'VALIDATION_ERROR');
    fails(await patch(coupon.public_id, { code: other.code.toLowerCase() }), 409, 'CODE_TAKEN');
    assert.deepEqual(ok(await t.admin.get(`${COUPONS}/${coupon.public_id}`)), unchanged);
    fails(await patch(`cpn_${randomBytes(12).toString('base64url')}`, { is_active: true }), 404, 'NOT_FOUND');
    fails(await patch('coupon-1', { is_active: true }), 404, 'NOT_FOUND');

    const reset = ok(await patch(coupon.public_id, { starts_at: null, is_active: true, code: `${coupon.code}x` }));
    assert.deepEqual([reset.starts_at, reset.status, reset.code], [null, 'ACTIVE', `${coupon.code}X`]);
  });

  test('DELETE is 204; then GET, PATCH and DELETE are 404, the list omits it, and the code is free again', async () => {
    const coupon = await createCoupon(t.admin, { code: code('DEL') });
    const response = await t.admin.delete(`${COUPONS}/${coupon.public_id}`);
    assert.equal(response.status, 204);
    assert.equal(response.text, '');
    fails(await t.admin.get(`${COUPONS}/${coupon.public_id}`), 404, 'NOT_FOUND');
    fails(await t.admin.patch(`${COUPONS}/${coupon.public_id}`, { is_active: false }), 404, 'NOT_FOUND');
    fails(await t.admin.delete(`${COUPONS}/${coupon.public_id}`), 404, 'NOT_FOUND');
    fails(await t.admin.get(`${COUPONS}/${coupon.public_id}/usages`), 404, 'NOT_FOUND');
    assert.deepEqual(ok(await t.admin.get(`${COUPONS}?search=${coupon.code}`)), []);
    const row = await t.db.selectFrom('coupons').select('deleted_at').where('public_id', '=', coupon.public_id).executeTakeFirstOrThrow();
    assert.ok(row.deleted_at instanceof Date, 'soft delete');
    assert.equal((await auditRows(t, 'coupon.delete', coupon.public_id)).length, 1);
    assert.notEqual((await createCoupon(t.admin, { code: coupon.code })).public_id, coupon.public_id);
  });

  test('GET /admin/coupons/{cpn}/usages lists the orders that used it, newest first', async () => {
    const coupon = await createCoupon(t.admin, { code: code('USE'), discount_value: '3.00', usage_limit: 2 });
    const first = await buyer(1);
    const second = await buyer(2);
    const a = ok(await checkout(first.client, first.addressId, { coupon_code: coupon.code }), 201);
    const b = ok(await checkout(second.client, second.addressId, { coupon_code: coupon.code.toLowerCase() }), 201);
    const response = await t.admin.get(`${COUPONS}/${coupon.public_id}/usages`);
    const usages = ok(response) as any[];
    assert.deepEqual(
      usages.map(({ created_at: _c, ...u }) => u),
      [
        {
          order_public_id: b.public_id,
          order_number: b.order_number,
          user: { public_id: second.user.public_id, email: second.email },
          discount_amount: '3.00',
          released: false,
        },
        {
          order_public_id: a.public_id,
          order_number: a.order_number,
          user: { public_id: first.user.public_id, email: first.email },
          discount_amount: '3.00',
          released: false,
        },
      ],
    );
    assert.deepEqual(response.body.meta, { page: 1, limit: 20, total: 2, totalPages: 1, hasNext: false, hasPrev: false });
    assert.equal(await statusOf(coupon.public_id), 'EXHAUSTED');
    fails(await t.admin.patch(`${COUPONS}/${coupon.public_id}`, { usage_limit: 1 }), 400, 'VALIDATION_ERROR');
    assert.equal(ok(await t.admin.patch(`${COUPONS}/${coupon.public_id}`, { usage_limit: 3 })).status, 'ACTIVE');
  });

  test('customers get 403 and anonymous callers 401 on every coupon endpoint', async () => {
    const coupon = await createCoupon(t.admin, { code: code() });
    const customer = (await signUp(t)).client;
    for (const [who, status, errorCode] of [
      [customer, 403, 'FORBIDDEN'],
      [t.client(), 401, 'UNAUTHENTICATED'],
    ] as const) {
      fails(await who.get(COUPONS), status, errorCode);
      fails(await who.post(COUPONS, { code: code(), discount_type: 'FIXED_AMOUNT', discount_value: '1.00' }), status, errorCode);
      fails(await who.get(`${COUPONS}/${coupon.public_id}`), status, errorCode);
      fails(await who.patch(`${COUPONS}/${coupon.public_id}`, { is_active: false }), status, errorCode);
      fails(await who.delete(`${COUPONS}/${coupon.public_id}`), status, errorCode);
      fails(await who.get(`${COUPONS}/${coupon.public_id}/usages`), status, errorCode);
    }
    assert.deepEqual(ok(await t.admin.get(`${COUPONS}/${coupon.public_id}`)), coupon);
  });
});

describe('POST /orders with a coupon that cannot be used: nothing changes', () => {
  /** Checks out with `couponCode`, expects the refusal, and proves order, cart, stock and coupon untouched. */
  async function refused(couponCode: string, couponId: string | undefined, status: number, errorCode: string, quantity = 1) {
    const s = await buyer(quantity);
    const beforeState = await checkoutState(t, s.user.public_id, [variantId], couponId);
    const error = fails(await checkout(s.client, s.addressId, { coupon_code: couponCode }), status, errorCode);
    assert.deepEqual(await checkoutState(t, s.user.public_id, [variantId], couponId), beforeState);
    assert.equal(beforeState.cart.length, 1);
    assert.equal(beforeState.orders.length, 0);
    return { error, s };
  }

  test('unknown code: 400 INVALID_COUPON', async () => {
    const { error } = await refused('NO-SUCH-CODE', undefined, 400, 'INVALID_COUPON');
    assert.equal(error.details?.[0]?.field, 'coupon_code');
  });

  test('inactive, deleted, not yet started, expired: 400 INVALID_COUPON', async () => {
    const inactive = await createCoupon(t.admin, { code: code(), is_active: false });
    await refused(inactive.code, inactive.public_id, 400, 'INVALID_COUPON');

    const deleted = await createCoupon(t.admin, { code: code() });
    ok(await t.admin.delete(`${COUPONS}/${deleted.public_id}`), 204);
    await refused(deleted.code, deleted.public_id, 400, 'INVALID_COUPON');

    const later = await createCoupon(t.admin, { code: code(), starts_at: inHours(1) });
    await refused(later.code, later.public_id, 400, 'INVALID_COUPON');

    const ending = await createCoupon(t.admin, { code: code(), expires_at: inHours(1) });
    await buy(ending.code); // valid before expiry
    t.clock.advance(HOUR + 60_000);
    await refused(ending.code, ending.public_id, 400, 'INVALID_COUPON');
    assert.equal(ok(await t.admin.get(`${COUPONS}/${ending.public_id}`)).times_used, 1);
    await buy(later.code); // the scheduled one has started meanwhile
  });

  test('below minimum_order_amount: 400 INVALID_COUPON; exactly the minimum is accepted', async () => {
    const coupon = await createCoupon(t.admin, { code: code(), minimum_order_amount: '40.00' });
    await refused(coupon.code, coupon.public_id, 400, 'INVALID_COUPON', 1); // 20.00
    const order = await buy(coupon.code, 2); // 40.00
    assert.deepEqual([order.subtotal, order.discount_total, order.coupon_code], ['40.00', '1.00', coupon.code]);
  });

  test('used up: 409 COUPON_EXHAUSTED', async () => {
    const coupon = await createCoupon(t.admin, { code: code(), usage_limit: 1 });
    await buy(coupon.code);
    await refused(coupon.code, coupon.public_id, 409, 'COUPON_EXHAUSTED');
    assert.equal(ok(await t.admin.get(`${COUPONS}/${coupon.public_id}`)).times_used, 1);
  });

  test('per-user limit reached: 409 COUPON_EXHAUSTED for that account only', async () => {
    const coupon = await createCoupon(t.admin, { code: code(), usage_limit_per_user: 1 });
    const s = await buyer(1);
    ok(await checkout(s.client, s.addressId, { coupon_code: coupon.code }), 201);
    ok(await s.client.post(`${API}/cart/items`, { variant_public_id: variantId, quantity: 1 }));
    const beforeState = await checkoutState(t, s.user.public_id, [variantId], coupon.public_id);
    fails(await checkout(s.client, s.addressId, { coupon_code: coupon.code }), 409, 'COUPON_EXHAUSTED');
    assert.deepEqual(await checkoutState(t, s.user.public_id, [variantId], coupon.public_id), beforeState);
    assert.equal(beforeState.coupon?.times_used, 1);
    await buy(coupon.code); // another account still may
  });
});
