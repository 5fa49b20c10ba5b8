import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkServerVersion, majorOf, MINIMUM_POSTGRES_MAJOR, UnsupportedServerError } from '../../src/db/server-version.js';

describe('the PostgreSQL version check', () => {
  test('major versions from server_version_num', () => {
    assert.equal(majorOf(150018), 15);
    assert.equal(majorOf(180001), 18);
    assert.equal(majorOf(90624), 9);
  });

  test(`${MINIMUM_POSTGRES_MAJOR} and later pass; older servers are refused with a message naming both versions`, () => {
    assert.doesNotThrow(() => checkServerVersion(150000, '15.0'));
    assert.doesNotThrow(() => checkServerVersion(180001, '18.1'));
    for (const [num, version] of [
      [140011, '14.11'],
      [90624, '9.6.24'],
      [Number.NaN, 'unknown'],
    ] as const) {
      assert.throws(
        () => checkServerVersion(num, version),
        (error: unknown) =>
          error instanceof UnsupportedServerError &&
          error.message === `PostgreSQL ${version} is not supported: the service needs PostgreSQL 15 or later`,
      );
    }
  });
});
