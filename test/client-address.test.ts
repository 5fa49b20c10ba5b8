import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { startBalancer } from './helpers/balancer.js';
import { Client } from './helpers/client.js';
import { uniqueEmail, PASSWORD } from './helpers/factories.js';

/**
 * Behind a load balancer, per-address limits key on the address the
 * balancer saw, never on an X-Forwarded-For entry the client wrote itself:
 * otherwise one client rotating a forged header gets a fresh limit per request.
 */
const REGISTER = '/api/v1/auth/register';
const body = () => ({ email: uniqueEmail(), password: PASSWORD, first_name: 'Ada', last_name: 'Lovelace' });

async function withApp(env: Record<string, string>, run: (t: TestApp) => Promise<void>) {
  const t = await startTestApp({ NODE_ENV: 'production', RATE_LIMIT_REGISTER: '2/1h', ...env });
  try {
    await run(t);
  } finally {
    await t.close();
  }
}

/** Registers through `inject`, as if the request arrived from `remoteAddress` carrying `forwardedFor`. */
async function registerFrom(t: TestApp, remoteAddress: string, forwardedFor: string) {
  const presession = await t.app.inject({ method: 'GET', url: '/api/v1/auth/csrf-token', remoteAddress });
  const cookie = presession.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const response = await t.app.inject({
    method: 'POST',
    url: REGISTER,
    remoteAddress,
    headers: { cookie, 'x-csrf-token': presession.json().data.csrf_token, 'x-forwarded-for': forwardedFor },
    payload: body(),
  });
  return response.statusCode;
}

describe('the client address behind a proxy', () => {
  test('through one balancer hop (TRUST_PROXY=1), a forged X-Forwarded-For does not escape the per-address limit', () =>
    withApp({ TRUST_PROXY: '1' }, async (t) => {
      const balancer = await startBalancer([t.baseUrl]);
      try {
        const statuses = [];
        for (let i = 1; i <= 3; i++) {
          const client = new Client(balancer.url);
          statuses.push((await client.post(REGISTER, body(), { headers: { 'x-forwarded-for': `198.51.100.${i}` } })).status);
        }
        assert.deepEqual(statuses, [201, 201, 429]);
      } finally {
        await balancer.close();
      }
    }));

  test('by default in production, proxies on private networks are trusted and the client address is the one they saw', () =>
    withApp({}, async (t) => {
      // A balancer at 10.0.0.5 saw the client at 203.0.113.9; whatever the client put before that is ignored.
      const statuses = [];
      for (let i = 1; i <= 3; i++) statuses.push(await registerFrom(t, '10.0.0.5', `198.51.100.${i}, 203.0.113.9`));
      assert.deepEqual(statuses, [201, 201, 429]);
      // Another client behind the same balancer has its own limit.
      assert.equal(await registerFrom(t, '10.0.0.5', '203.0.113.10'), 201);
    }));

  test('a request from a public address is its own client, whatever X-Forwarded-For it carries', () =>
    withApp({}, async (t) => {
      const statuses = [];
      for (let i = 1; i <= 3; i++) statuses.push(await registerFrom(t, '203.0.113.20', `198.51.100.${i}`));
      assert.deepEqual(statuses, [201, 201, 429]);
    }));

  test('TRUST_PROXY takes a hop count or addresses and ranges, and refuses anything else at start-up', () => {
    const trust = (value: string | undefined, env = 'production') => loadConfig({ NODE_ENV: env, TRUST_PROXY: value }).trustProxy;
    assert.equal(trust(undefined), 'loopback,linklocal,uniquelocal');
    assert.equal(trust(undefined, 'development'), false);
    assert.equal(trust('2'), 2);
    assert.equal(trust('false'), false);
    assert.equal(trust('10.0.0.0/8, 192.168.1.7, fd00::/8, loopback'), '10.0.0.0/8,192.168.1.7,fd00::/8,loopback');
    for (const bad of ['yes', '10.0.0.0/33', '10.0.0/8', 'proxy.internal', '11']) assert.throws(() => trust(bad), ConfigError, bad);
  });
});
