import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { describeChanges } from '../src/features/audit/describe-changes';
import { couponBody, couponValues, fromUtcInput, toUtcInput } from '../src/features/coupons/coupon-values';
import { suspensionBlockedBecause } from '../src/features/customers/reach';
import { deliveriesRefreshMs } from '../src/features/webhooks/refresh';
import { money, titleCase, utcDay, when } from '../src/lib/format';

describe('coupon form values', () => {
  test('a new coupon is an active percentage with no limits', () => {
    const values = couponValues(null);
    assert.deepEqual(
      [values.discount_type, values.is_active, values.usage_limit, values.starts_at, values.expires_at],
      ['PERCENTAGE', true, '', '', ''],
    );
  });

  test('empty limits are sent as null ("no limit"); numbers as numbers; text trimmed', () => {
    const body = couponBody({
      ...couponValues(null),
      code: ' SPRING ',
      discount_value: ' 10 ',
      minimum_order_amount: ' ',
      usage_limit: '5',
      usage_limit_per_user: '',
    });
    assert.deepEqual(
      [
        body.code,
        body.discount_value,
        body.minimum_order_amount,
        body.maximum_discount_amount,
        body.usage_limit,
        body.usage_limit_per_user,
      ],
      ['SPRING', '10', null, null, 5, null],
    );
    assert.deepEqual([body.starts_at, body.expires_at], [null, null]);
  });

  test("a stored coupon's form values send back the same coupon", () => {
    const stored = {
      code: 'WINTER',
      discount_type: 'FIXED_AMOUNT' as const,
      discount_value: '5.00',
      minimum_order_amount: '20.00',
      maximum_discount_amount: null,
      usage_limit: 100,
      usage_limit_per_user: 1,
      starts_at: '2026-12-01T09:30:00.000Z',
      expires_at: null,
      is_active: false,
    };
    assert.deepEqual(couponBody(couponValues(stored)), stored);
  });

  test('a datetime-local value is a minute in UTC, whatever the zone of the browser', () => {
    assert.equal(toUtcInput(null), '');
    assert.equal(toUtcInput('2026-11-24T10:00:00.000Z'), '2026-11-24T10:00', 'read in UTC, whatever the zone of the machine');
    assert.equal(fromUtcInput('2026-11-24T23:30'), '2026-11-24T23:30:00.000Z');
    assert.equal(fromUtcInput(toUtcInput('2026-11-24T10:07:00.000Z')), '2026-11-24T10:07:00.000Z');
    assert.equal(fromUtcInput(''), null);
  });
});

describe('who may suspend whom (the server’s checkReach)', () => {
  const superAdmin = { public_id: 'usr_s', role: 'SUPER_ADMIN' as const };
  const admin = { public_id: 'usr_a', role: 'ADMIN' as const };
  const customer = { public_id: 'usr_c', role: 'CUSTOMER' as const };
  test('never oneself, never a super admin, an admin only customers', () => {
    assert.equal(suspensionBlockedBecause(admin, admin), 'This is your own account');
    assert.equal(suspensionBlockedBecause(admin, customer), null);
    assert.equal(
      suspensionBlockedBecause(admin, { public_id: 'usr_b', role: 'ADMIN' }),
      'Admins can suspend or reactivate customer accounts only',
    );
    assert.equal(suspensionBlockedBecause(superAdmin, admin), null);
    assert.match(suspensionBlockedBecause(superAdmin, { public_id: 'usr_t', role: 'SUPER_ADMIN' })!, /change the role first/);
  });
});

describe('audit entries as people read them', () => {
  test('an update lists what changed, and the IDs that say what about', () => {
    assert.deepEqual(
      describeChanges({
        before: { status: 'PLACED', product_public_id: 'prd_1', note: null },
        after: { status: 'CONFIRMED', product_public_id: 'prd_1', note: null },
      }),
      {
        fields: [
          { field: 'status', was: 'PLACED', value: 'CONFIRMED' },
          { field: 'product_public_id', value: 'prd_1' },
        ],
      },
    );
  });

  test('a creation lists its values, a deletion its values as they were; another shape is its JSON, cut short', () => {
    assert.deepEqual(describeChanges({ before: null, after: { code: 'X', uses: 2 } }), {
      fields: [
        { field: 'code', value: 'X' },
        { field: 'uses', value: '2' },
      ],
    });
    assert.deepEqual(describeChanges({ before: { name: 'Mug' }, after: null }), {
      heading: 'Deleted',
      fields: [{ field: 'name', value: 'Mug' }],
    });
    // What came of an action, with no `before` at all (a webhook test event sent).
    assert.deepEqual(describeChanges({ after: { event: 'evt_1' } }), { fields: [{ field: 'event', value: 'evt_1' }] });
    assert.equal(describeChanges({ moved: [1, 2] }), '{"moved":[1,2]}');
    assert.equal((describeChanges('x'.repeat(1000)) as string).length, 300);
  });
});

describe('formatting', () => {
  test('missing values are a dash; statuses read as words', () => {
    assert.deepEqual([money(null), money(undefined), when(null), when(undefined)], ['—', '—', '—', '—']);
    assert.equal(titleCase('OUT_OF_STOCK'), 'Out of stock');
    assert.equal(titleCase('SUPER_ADMIN'), 'Super admin');
  });

  test('money is the decimal string formatted, never computed', () => {
    const format = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'EUR' });
    assert.equal(money('1234.50', 'EUR'), format.format(1234.5));
    assert.equal(money('0.10', 'EUR'), format.format(0.1));
  });

  test('days and times are UTC, and say so', () => {
    assert.equal(utcDay(new Date('2026-01-02T23:30:00Z')), '2026-01-02');
    assert.match(when('2026-01-02T23:30:00Z'), /11:30.*UTC|23:30.*UTC/);
    assert.match(when('2026-01-02T23:30:00Z'), /2/);
  });
});

describe('webhook delivery log refresh', () => {
  const now = Date.parse('2026-11-27T10:00:00Z');
  const at = (seconds: number) => new Date(now + seconds * 1000).toISOString();

  test('every second while a delivery on view is due within five seconds, else every five', () => {
    assert.equal(deliveriesRefreshMs([], now), 5_000);
    assert.equal(deliveriesRefreshMs([{ status: 'SUCCEEDED', next_attempt_at: null }], now), 5_000);
    assert.equal(deliveriesRefreshMs([{ status: 'PENDING', next_attempt_at: at(-1) }], now), 1_000);
    assert.equal(deliveriesRefreshMs([{ status: 'PENDING', next_attempt_at: at(4) }], now), 1_000);
    assert.equal(deliveriesRefreshMs([{ status: 'PENDING', next_attempt_at: null }], now), 1_000);
  });

  test('a retry minutes away, or a failed delivery, does not make the log poll faster', () => {
    assert.equal(deliveriesRefreshMs([{ status: 'PENDING', next_attempt_at: at(120) }], now), 5_000);
    assert.equal(deliveriesRefreshMs([{ status: 'FAILED', next_attempt_at: null }], now), 5_000);
  });
});
