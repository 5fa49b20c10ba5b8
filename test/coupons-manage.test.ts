import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { checkout } from './helpers/commerce.js';
import { COUPONS, HOUR, code, useCouponApp } from './helpers/coupons.js';
import { signUp } from './helpers/factories.js';
import { auditRows } from './helpers/inspect.js';
import { createCoupon, fails, ok } from './helpers/orders.js';

/** Admin coupons after creation: derived status, PATCH, DELETE, usages and who may call them. Creation: coupons-create. */

const { t, inHours, statusOf, buyer, buy } = useCouponApp();

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
