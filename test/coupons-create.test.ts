import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { COUPONS, code, useCouponApp } from './helpers/coupons.js';
import { auditRows } from './helpers/inspect.js';
import { createCoupon, fails, ok } from './helpers/orders.js';

/**
 * Admin coupons: POST /admin/coupons, its stored shape and its validation.
 * Status, edit, delete, usages: coupons-manage; at checkout:
 * coupons-checkout-refusals.
 */

const { t, inHours } = useCouponApp();

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
    // One instant for "expires when it starts": two readings of the clock can be a millisecond apart.
    const inAnHour = inHours(1);
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
      { ...base, starts_at: inAnHour, expires_at: inAnHour },
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
