import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { PRESESSION_COOKIE, SESSION_COOKIE } from '../../src/auth/cookies.js';
import { API_COOKIES, PERSONAL_COOKIES } from '../../packages/storefront/src/lib/server/cookie-names.js';

/**
 * A page request carrying none of the cookies a page depends on may get a page kept for everyone: in the
 * storefront's micro-cache (cookie-names.ts) and in Varnish (its VCL drops every other cookie). The three
 * lists and the API's own cookies must name the same cookies, or a shopper's page could be shared.
 */
test("the storefront's list names every cookie the API sets", () => {
  assert.deepEqual(new Set(Object.values(API_COOKIES)), new Set([SESSION_COOKIE, PRESESSION_COOKIE]));
});

test("the Varnish configuration passes exactly the storefront's cookies to the service", () => {
  const vcl = readFileSync(new URL('../../deploy/varnish/commerce.vcl', import.meta.url), 'utf8');
  const rule = /req\.http\.Cookie ~ "\(\^\|;\)\\s\*\(([\w|]+)\)="/.exec(vcl);
  assert.ok(rule, 'the VCL names the cookies a page depends on');
  assert.deepEqual(new Set(rule[1]!.split('|')), PERSONAL_COOKIES);
});

test("every read-once notice is one of the storefront's listed cookies (an unlisted one fails as its module loads)", async () => {
  const { readOnceCookie } = await import('../../packages/storefront/src/lib/server/read-once.js');
  const options = { path: '/', maxAgeSeconds: 1, write: String, read: (raw: string) => raw };
  assert.throws(() => readOnceCookie({ ...options, name: 'unlisted' }), /not listed in cookie-names\.ts/);
  assert.equal(readOnceCookie({ ...options, name: 'merged' }).name, 'merged');
});
