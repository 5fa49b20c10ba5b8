import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isDatabaseUnavailable, isRetryableTransactionError, uniqueViolationError } from '../../src/lib/db-errors.js';
import { mapError } from '../../src/lib/error-handler.js';
import { insufficientStock, notFound, rateLimited } from '../../src/lib/errors.js';

const pgError = (fields: Record<string, string>) => Object.assign(new Error('database said no'), fields);

test('refusals keep their status, code, details and headers', () => {
  assert.deepEqual(mapError(notFound('Order')), {
    status: 404,
    code: 'NOT_FOUND',
    message: 'Order not found',
    details: undefined,
    headers: undefined,
  });
  const stock = mapError(insufficientStock('Not enough', [{ field: 'items[0]', message: 'only 1 left' }]));
  assert.equal(stock?.status, 409);
  assert.deepEqual(stock?.details, [{ field: 'items[0]', message: 'only 1 left' }]);
  assert.equal(mapError(rateLimited(30))?.headers?.['retry-after'], '30');
});

test('the unique violations a client can cause become their conflict codes; any other stays unexpected', () => {
  assert.equal(mapError(pgError({ code: '23505', constraint: 'users_email_key' }))?.code, 'EMAIL_TAKEN');
  assert.equal(mapError(pgError({ code: '23505', constraint: 'variants_sku_unique' }))?.code, 'SKU_TAKEN');
  assert.equal(uniqueViolationError(pgError({ code: '23505', constraint: 'some_internal_index' })), null);
  assert.equal(mapError(pgError({ code: '23505', constraint: 'some_internal_index' })), null, 'a 500, logged');
  assert.equal(mapError(pgError({ code: '42P01' })), null);
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
