import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig, parseRateLimit } from '../../src/config.js';

describe('configuration', () => {
  test('an empty environment is a working local setup', () => {
    const config = loadConfig({});
    assert.equal(config.port, 3000);
    assert.equal(config.databaseUrl, null);
    assert.equal(config.dbPoolSize, 20);
    assert.deepEqual(config.rateLimits.LOGIN, { count: 10, windowSeconds: 900 });
  });

  test("the home page's words are the shop's own, one line each, bounded", () => {
    const config = loadConfig({ STORE_HEADLINE: 'Tea, slowly', STORE_INTRODUCTION: 'Loose-leaf teas from small gardens.' });
    assert.equal(config.commerce.storeHeadline, 'Tea, slowly');
    assert.equal(config.commerce.storeIntroduction, 'Loose-leaf teas from small gardens.');
    assert.equal(loadConfig({}).commerce.storeHeadline, 'Good gear for every day');
    assert.throws(() => loadConfig({ STORE_HEADLINE: 'x'.repeat(121) }), /STORE_HEADLINE must be at most 120 characters/);
    assert.throws(() => loadConfig({ STORE_INTRODUCTION: 'One.\nTwo.' }), /STORE_INTRODUCTION must be one line/);
  });

  test('cookies are Secure when the shop is at an https address, unless COOKIE_SECURE says otherwise', () => {
    assert.equal(loadConfig({}).cookieSecure, false, 'http://localhost');
    assert.equal(loadConfig({ PUBLIC_BASE_URL: 'http://shop.test' }).cookieSecure, false);
    assert.equal(loadConfig({ PUBLIC_BASE_URL: 'https://shop.example.com' }).cookieSecure, true);
    assert.equal(loadConfig({ PUBLIC_BASE_URL: 'https://shop.example.com', COOKIE_SECURE: 'false' }).cookieSecure, false);
    assert.equal(loadConfig({ COOKIE_SECURE: 'true' }).cookieSecure, true);
  });

  test("mail comes from the shop's name unless MAIL_FROM says otherwise", () => {
    assert.equal(loadConfig({}).mailFrom, '"Northwind Supply" <no-reply@store.local>');
    assert.equal(loadConfig({ STORE_NAME: 'Anna\'s "Best", Ltd.' }).mailFrom, '"Anna\'s Best, Ltd." <no-reply@store.local>');
    assert.equal(loadConfig({ MAIL_FROM: 'Shop <shop@example.com>' }).mailFrom, 'Shop <shop@example.com>');
    // A line break in the name, which could become a header of its own, stops start-up.
    assert.throws(() => loadConfig({ STORE_NAME: 'Evil Shop\r\nBcc: victim@example.com' }), /STORE_NAME must be one line/);
  });

  test('schemas compile at start in production, on first use elsewhere, unless told', () => {
    assert.equal(loadConfig({ NODE_ENV: 'production' }).schemaCompile, 'start');
    assert.equal(loadConfig({}).schemaCompile, 'first-use');
    assert.equal(loadConfig({ NODE_ENV: 'test' }).schemaCompile, 'first-use');
    assert.equal(loadConfig({ NODE_ENV: 'production', SCHEMA_COMPILE: 'first-use' }).schemaCompile, 'first-use');
    assert.equal(loadConfig({ SCHEMA_COMPILE: 'start' }).schemaCompile, 'start');
  });

  test('a bad value stops start-up with a message naming the variable', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ PORT: 'eighty' }, /PORT must be an integer/],
      [{ PORT: '70000' }, /PORT must be between/],
      [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must use one of postgres:, postgresql:/],
      [{ DATABASE_URL: 'not a url' }, /DATABASE_URL must be a valid URL/],
      [{ RATE_LIMIT_LOGIN: '10 per minute' }, /RATE_LIMIT_LOGIN must look like "10\/15m"/],
      [{ TRUST_PROXY: '11' }, /TRUST_PROXY must be at most 10 hops/],
      [{ TRUST_PROXY: '10.0.0.0/33' }, /TRUST_PROXY must be false, a hop count/],
      [{ CORS_ORIGINS: 'http://ok.example,::bad' }, /CORS_ORIGINS has an invalid origin/],
      [{ SCHEMA_COMPILE: 'lazy' }, /SCHEMA_COMPILE must be start or first-use/],
      [{ SHUTDOWN_DELAY_MS: '5000', SHUTDOWN_GRACE_MS: '5000' }, /SHUTDOWN_DELAY_MS must be below SHUTDOWN_GRACE_MS \(5000\)/],
      [{ SHUTDOWN_DELAY_MS: '60001' }, /SHUTDOWN_DELAY_MS must be between/],
      [{ REQUEST_TIMEOUT_MS: '120' }, /REQUEST_TIMEOUT_MS must be 0 \(no limit\) or at least 1000 ms, got 120/],
    ];
    for (const [env, message] of cases) {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => error instanceof ConfigError && message.test(error.message),
        JSON.stringify(env),
      );
    }
  });

  test('background work defaults: a 60 s email lease, pruning in batches of 500 every 10 minutes', () => {
    const config = loadConfig({});
    assert.equal(config.emailLeaseMs, 60_000);
    assert.equal(config.emailWorker, 'in-process');
    assert.equal(config.retention.batchSize, 500);
    assert.equal(config.retention.intervalMs, 600_000);
    assert.equal(config.mediaSigningKey, null);
    assert.equal(loadConfig({ EMAIL_LEASE_MS: '600000' }).emailLeaseMs, 600_000);
    assert.equal(loadConfig({ PRUNE_BATCH_SIZE: '2' }).retention.batchSize, 2);
    const key = 'k'.repeat(32);
    assert.equal(loadConfig({ MEDIA_SIGNING_KEY: key }).mediaSigningKey, key);
    const refused: [Record<string, string>, RegExp][] = [
      [{ EMAIL_LEASE_MS: '999' }, /EMAIL_LEASE_MS must be between 1000/],
      [{ PRUNE_BATCH_SIZE: '0' }, /PRUNE_BATCH_SIZE must be between 1/],
      [{ MEDIA_SIGNING_KEY: 'k'.repeat(31) }, /MEDIA_SIGNING_KEY must be at least 32 characters/],
    ];
    for (const [env, message] of refused) {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => error instanceof ConfigError && message.test(error.message),
        JSON.stringify(env),
      );
    }
  });

  test('database behind a pooler: migrations on start by default, a migration URL only with DATABASE_URL, statements named unless told', () => {
    const config = loadConfig({});
    assert.equal(config.migrateOnStart, true);
    assert.equal(config.migrationDatabaseUrl, null);
    assert.equal(config.dbNamedStatements, true);
    assert.equal(config.migrationLockTimeoutMs, 5_000);
    assert.equal(loadConfig({ MIGRATION_LOCK_TIMEOUT_MS: '30000' }).migrationLockTimeoutMs, 30_000);
    const pooled = loadConfig({
      DATABASE_URL: 'postgres://app@pgbouncer:6432/commerce',
      MIGRATION_DATABASE_URL: 'postgres://owner@db:5432/commerce',
      MIGRATE_ON_START: 'false',
      DB_NAMED_STATEMENTS: 'false',
    });
    assert.equal(pooled.migrationDatabaseUrl, 'postgres://owner@db:5432/commerce');
    assert.equal(pooled.migrateOnStart, false);
    assert.equal(pooled.dbNamedStatements, false);
    const refused: [Record<string, string>, RegExp][] = [
      [{ MIGRATION_DATABASE_URL: 'postgres://owner@db/commerce' }, /MIGRATION_DATABASE_URL needs DATABASE_URL/],
      [{ DATABASE_URL: 'postgres://db/c', MIGRATION_DATABASE_URL: 'http://db' }, /MIGRATION_DATABASE_URL must use one of postgres:/],
      [{ MIGRATE_ON_START: 'later' }, /MIGRATE_ON_START must be true or false/],
      [{ DB_NAMED_STATEMENTS: 'unnamed' }, /DB_NAMED_STATEMENTS must be true or false/],
      [{ MIGRATION_LOCK_TIMEOUT_MS: '0' }, /MIGRATION_LOCK_TIMEOUT_MS/],
    ];
    for (const [env, message] of refused) {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => error instanceof ConfigError && message.test(error.message),
        JSON.stringify(env),
      );
    }
  });

  test('blank values count as unset', () => {
    assert.equal(loadConfig({ PORT: '  ' }).port, 3000);
  });

  test('rate limits: count per window in s, m, h, d; 0 switches a limit off', () => {
    assert.deepEqual(parseRateLimit('X', '10/15m'), { count: 10, windowSeconds: 900 });
    assert.deepEqual(parseRateLimit('X', '3/1d'), { count: 3, windowSeconds: 86_400 });
    assert.deepEqual(parseRateLimit('X', '100/30s'), { count: 100, windowSeconds: 30 });
    assert.equal(parseRateLimit('X', '0'), null);
    for (const bad of ['0/1m', '1/0m', '10/15', '10/15w', '-1/1m', '']) assert.throws(() => parseRateLimit('X', bad), ConfigError, bad);
  });
});

describe('the default reorder level the console offers', () => {
  test('5 unless set; none offers none; a negative level is refused', () => {
    assert.equal(loadConfig({ NODE_ENV: 'test' }).commerce.defaultReorderLevel, 5);
    assert.equal(loadConfig({ NODE_ENV: 'test', DEFAULT_REORDER_LEVEL: '12' }).commerce.defaultReorderLevel, 12);
    assert.equal(loadConfig({ NODE_ENV: 'test', DEFAULT_REORDER_LEVEL: 'none' }).commerce.defaultReorderLevel, null);
    assert.throws(() => loadConfig({ NODE_ENV: 'test', DEFAULT_REORDER_LEVEL: '-1' }), /DEFAULT_REORDER_LEVEL/);
  });
});
