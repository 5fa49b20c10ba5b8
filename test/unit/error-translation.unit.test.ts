import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkAccountUses, checkCouponApplies, checkCouponDefinition } from '../../src/coupons/rules.js';
import { isDatabaseUnavailable, isRetryableTransactionError, uniqueViolationError } from '../../src/lib/db-errors.js';
import { mapError } from '../../src/lib/error-handler.js';
import { ERROR_CODES } from '../../src/lib/error-codes.js';
import * as errors from '../../src/lib/errors.js';
import { AppError } from '../../src/lib/errors.js';

const codeOf = (work: () => void) => {
  try {
    work();
  } catch (error) {
    assert.ok(error instanceof AppError);
    return error.code;
  }
  return null;
};

describe('error codes', () => {
  /** The contract's table of codes by status (../shared/contract.md, "Error envelope"): a code there answers with its status here. */
  const CONTRACT: Record<number, string[]> = {
    400: [
      'VALIDATION_ERROR',
      'INVALID_JSON',
      'INVALID_PASSWORD',
      'INVALID_IMAGE_URL',
      'INVALID_COUPON',
      'STOCK_RULE_VIOLATION',
      'VARIANT_UNAVAILABLE',
    ],
    401: ['UNAUTHENTICATED', 'INVALID_CREDENTIALS'],
    403: ['FORBIDDEN', 'CSRF_TOKEN_INVALID'],
    404: ['NOT_FOUND'],
    405: ['METHOD_NOT_ALLOWED'],
    409: [
      'CONFLICT',
      'EMAIL_TAKEN',
      'DEFAULT_ADDRESS_REQUIRED',
      'INVENTORY_EXISTS',
      'INSUFFICIENT_STOCK',
      'CART_EMPTY',
      'TOTAL_CHANGED',
      'INVALID_TRANSITION',
      'ALREADY_REVIEWED',
      'COUPON_EXHAUSTED',
      'LAST_SUPER_ADMIN',
      'IDEMPOTENCY_KEY_REUSED',
      'SLUG_TAKEN',
      'SKU_TAKEN',
      'CODE_TAKEN',
      'ALREADY_VERIFIED',
      'RESERVATION_HELD',
    ],
    410: ['TOKEN_EXPIRED'],
    413: ['PAYLOAD_TOO_LARGE'],
    415: ['UNSUPPORTED_MEDIA_TYPE'],
    429: ['RATE_LIMITED'],
    500: ['INTERNAL_ERROR'],
    503: ['SERVICE_UNAVAILABLE', 'NOT_READY'],
  };

  test("every code the contract names answers with the contract's status", () => {
    for (const [status, codes] of Object.entries(CONTRACT))
      for (const code of codes) {
        assert.ok(code in ERROR_CODES, `${code} is missing`);
        assert.equal(ERROR_CODES[code as keyof typeof ERROR_CODES].status, Number(status), code);
      }
  });

  test('every factory answers with its code', () => {
    const samples: [AppError, string][] = [
      [errors.validationError('x'), 'VALIDATION_ERROR'],
      [errors.invalidPassword('current_password'), 'INVALID_PASSWORD'],
      [errors.invalidCoupon('why'), 'INVALID_COUPON'],
      [errors.stockRuleViolation('x'), 'STOCK_RULE_VIOLATION'],
      [errors.invalidCredentials(), 'INVALID_CREDENTIALS'],
      [errors.csrfTokenInvalid(), 'CSRF_TOKEN_INVALID'],
      [errors.notFound(), 'NOT_FOUND'],
      [errors.concurrentChange('x'), 'CONFLICT'],
      [errors.emailTaken(), 'EMAIL_TAKEN'],
      [errors.defaultAddressRequired('is_default_billing'), 'DEFAULT_ADDRESS_REQUIRED'],
      [errors.reservationHeld(1, 2), 'RESERVATION_HELD'],
      [errors.couponExhausted(true), 'COUPON_EXHAUSTED'],
      [errors.totalChanged('1.00', '2.00'), 'TOTAL_CHANGED'],
      [errors.invalidTransition('PLACED', 'SHIPPED', ['CONFIRMED']), 'INVALID_TRANSITION'],
      [errors.tokenExpired(), 'TOKEN_EXPIRED'],
      [errors.payloadTooLarge('x'), 'PAYLOAD_TOO_LARGE'],
      [errors.unsupportedMediaType('x'), 'UNSUPPORTED_MEDIA_TYPE'],
      [errors.rateLimited(3), 'RATE_LIMITED'],
    ];
    for (const [error, code] of samples) assert.equal(error.code, code);
  });
});

describe('unique violations: one translation', () => {
  const violation = (constraint: string) => Object.assign(new Error('duplicate key'), { code: '23505', constraint });

  test('each known constraint becomes its refusal', () => {
    assert.equal(uniqueViolationError(violation('users_email_key'))?.code, 'EMAIL_TAKEN');
    assert.equal(uniqueViolationError(violation('coupons_code_unique'))?.code, 'CODE_TAKEN');
    assert.equal(uniqueViolationError(violation('reviews_one_per_author'))?.code, 'ALREADY_REVIEWED');
    assert.equal(uniqueViolationError(violation('inventory_by_variant_public_id'))?.code, 'INVENTORY_EXISTS');
    assert.equal(uniqueViolationError(violation('addresses_one_default_billing'))?.code, 'CONFLICT');
    assert.equal(uniqueViolationError(violation('categories_slug_unique'))?.message, 'Another category already uses this slug');
  });

  test('an unknown constraint or another error stays unexpected', () => {
    assert.equal(uniqueViolationError(violation('orders_order_number_key')), null);
    assert.equal(uniqueViolationError(Object.assign(new Error('x'), { code: '23503', constraint: 'users_email_key' })), null);
    assert.equal(uniqueViolationError(new Error('x')), null);
  });
});

describe('coupon rules an order and the admin API apply', () => {
  const NOW = new Date('2026-06-15T12:00:00Z');
  const coupon = {
    is_active: true,
    starts_at: null,
    expires_at: null,
    usage_limit: null,
    times_used: 0,
    deleted_at: null,
    minimum_order_amount: '50.00',
    usage_limit_per_user: 1,
  };

  test('a subtotal below the minimum is refused in words, with the currency', () => {
    assert.throws(
      () => checkCouponApplies(coupon, NOW, 4999, 'EUR'),
      (error: { details?: { message: string }[] }) => /at least 50\.00 EUR$/.test(error.details?.[0]?.message ?? ''),
    );
  });

  test('status, minimum and per-account limit refuse with their codes', () => {
    assert.equal(
      codeOf(() => checkCouponApplies(coupon, NOW, 5000, 'USD')),
      null,
    );
    assert.equal(
      codeOf(() => checkCouponApplies(coupon, NOW, 4999, 'USD')),
      'INVALID_COUPON',
    );
    assert.equal(
      codeOf(() => checkCouponApplies({ ...coupon, is_active: false }, NOW, 5000, 'USD')),
      'INVALID_COUPON',
    );
    assert.equal(
      codeOf(() => checkCouponApplies({ ...coupon, usage_limit: 1, times_used: 1 }, NOW, 5000, 'USD')),
      'COUPON_EXHAUSTED',
    );
    assert.equal(
      codeOf(() => checkAccountUses(coupon, 0)),
      null,
    );
    assert.equal(
      codeOf(() => checkAccountUses(coupon, 1)),
      'COUPON_EXHAUSTED',
    );
    assert.equal(
      codeOf(() => checkAccountUses({ usage_limit_per_user: null }, 99)),
      null,
    );
  });

  test('a definition must hold across its fields, and an edit cannot set the limit below the uses made', () => {
    const definition = { discount_type: 'PERCENTAGE', discount_value: '10.00', usage_limit: 5 };
    assert.equal(
      codeOf(() => checkCouponDefinition(definition)),
      null,
    );
    assert.equal(
      codeOf(() => checkCouponDefinition({ ...definition, discount_value: '101.00' })),
      'VALIDATION_ERROR',
    );
    assert.equal(
      codeOf(() => checkCouponDefinition({ ...definition, starts_at: '2026-02-01T00:00:00Z', expires_at: '2026-01-01T00:00:00Z' })),
      'VALIDATION_ERROR',
    );
    assert.equal(
      codeOf(() => checkCouponDefinition(definition, 6)),
      'VALIDATION_ERROR',
    );
    assert.equal(
      codeOf(() => checkCouponDefinition(definition, 5)),
      null,
    );
  });
});

const pgError = (fields: Record<string, string>) => Object.assign(new Error('database said no'), fields);

describe('mapError: every error to its answer', () => {
  test('refusals keep their status, code, details and headers', () => {
    assert.deepEqual(mapError(errors.notFound('Order')), {
      status: 404,
      code: 'NOT_FOUND',
      message: 'Order not found',
      details: undefined,
      headers: undefined,
    });
    const stock = mapError(errors.insufficientStock('Not enough', [{ field: 'items[0]', message: 'only 1 left' }]));
    assert.equal(stock?.status, 409);
    assert.deepEqual(stock?.details, [{ field: 'items[0]', message: 'only 1 left' }]);
    assert.equal(mapError(errors.rateLimited(30))?.headers?.['retry-after'], '30');
  });
  test('a lost database is 503 with Retry-After; a deadlock left after retries is 409', () => {
    for (const lost of [
      pgError({ code: '57P01' }),
      pgError({ code: '08006' }),
      pgError({ code: 'ECONNREFUSED' }),
      new Error('Connection terminated unexpectedly'),
    ]) {
      assert.equal(isDatabaseUnavailable(lost), true, lost.message);
      const mapped = mapError(lost);
      assert.equal(mapped?.status, 503);
      assert.equal(mapped?.code, 'SERVICE_UNAVAILABLE');
      assert.ok(mapped?.headers?.['retry-after']);
    }
    assert.equal(isDatabaseUnavailable(Object.assign(new AggregateError([pgError({ code: 'ECONNREFUSED' })]), {})), true);
    assert.equal(isDatabaseUnavailable(pgError({ code: '23505' })), false);
    assert.equal(isRetryableTransactionError(pgError({ code: '40P01' })), true);
    assert.deepEqual(mapError(pgError({ code: '40001' }))?.status, 409);
  });
  test('schema failures are 400 VALIDATION_ERROR, each field reported once', () => {
    const error = Object.assign(new Error('body/name must be string'), {
      validation: [
        { instancePath: '/name', keyword: 'type', message: 'must be string', params: {} },
        { instancePath: '/name', keyword: 'minLength', message: 'must NOT have fewer than 1 characters', params: {} },
        {
          instancePath: '',
          keyword: 'additionalProperties',
          message: 'must NOT have additional properties',
          params: { additionalProperty: 'nmae' },
        },
      ],
      validationContext: 'body',
    });
    const mapped = mapError(error);
    assert.equal(mapped?.status, 400);
    assert.equal(mapped?.code, 'VALIDATION_ERROR');
    assert.deepEqual(
      mapped?.details?.map((detail) => detail.field),
      ['name', 'nmae'],
    );
  });
});
