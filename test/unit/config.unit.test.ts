import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

const base = { NODE_ENV: 'test', DATA_DIR: '/tmp/commerce-config-test' };

test('defaults a fresh install runs with', () => {
  const config = loadConfig(base);
  assert.equal(config.port, 3000);
  assert.equal(config.databaseUrl, null, 'no DATABASE_URL: the embedded server');
  assert.equal(config.commerce.currency, 'USD');
  assert.equal(config.commerce.shippingFlat, '10.00');
  assert.deepEqual(config.rateLimits.LOGIN, { count: 10, windowSeconds: 900 });
  assert.ok(Object.isFrozen(config));
});

test('a bad value stops start-up with a message naming the variable', () => {
  const refused: Record<string, string> = {
    PORT: '70000',
    DB_POOL_SIZE: 'many',
    CURRENCY: 'usd',
    TAX_RATE: '8.255555',
    SHIPPING_FLAT: '10.001',
    RATE_LIMIT_LOGIN: '10 per minute',
    EMAIL_WORKER: 'sometimes',
    MEDIA_SIGNING_KEY: 'short',
    TRUST_PROXY: '11',
    NODE_ENV: 'staging',
  };
  for (const [variable, value] of Object.entries(refused)) {
    assert.throws(
      () => loadConfig({ ...base, [variable]: value }),
      (error: unknown) => error instanceof ConfigError && error.message.includes(variable),
      `${variable}=${value}`,
    );
  }
});

test('limits switch off with 0, and blank values count as unset', () => {
  const config = loadConfig({ ...base, RATE_LIMIT_CHECKOUT: '0', PORT: '  ', CURRENCY: 'EUR' });
  assert.equal(config.rateLimits.CHECKOUT, null);
  assert.equal(config.port, 3000);
  assert.equal(config.commerce.currency, 'EUR');
});
