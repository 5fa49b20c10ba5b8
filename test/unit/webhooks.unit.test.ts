import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { ConfigError, loadConfig } from '../../src/config.js';
import { EVENT_CATALOG } from '../../src/events/catalog.js';
import { nextAttemptAt, retryDelayMs } from '../../src/events/retry.js';
import { createAddressPolicy, embeddedIpv4 } from '../../src/webhooks/address-policy.js';
import { newSigningSecret, signatureHeaders } from '../../src/webhooks/signing.js';

/** The pure parts of webhooks (issue 29): which addresses are refused, the retry schedule, Standard Webhooks signatures. */

describe('addresses webhooks may not call', () => {
  const strict = createAddressPolicy([]);

  test('loopback, private, link-local, metadata and other special addresses are refused, in both families and embedded', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.0.9',
      '10.0.0.1',
      '172.16.5.4',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      'fc00::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:169.254.169.254',
      '64:ff9b::a9fe:a9fe',
      '::10.0.0.1',
      '::ffff:0:127.0.0.1',
      '::ffff:0:a9fe:a9fe',
      'fec0::1',
    ]) {
      assert.ok(strict.refusal(address), `${address} is refused`);
    }
    assert.match(strict.refusal('169.254.169.254')!, /link-local/);
    assert.match(strict.refusal('::ffff:127.0.0.1')!, /carries 127\.0\.0\.1 is a loopback address/);
  });

  test('public addresses are called', () => {
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '203.0.113.10',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '::ffff:0:8.8.8.8',
    ])
      assert.equal(strict.refusal(address), null, address);
  });

  test('an allow-list lets named addresses and ranges through, and nothing else', () => {
    const allowing = createAddressPolicy(['127.0.0.1', '10.0.0.0/8', '::1']);
    for (const address of ['127.0.0.1', '10.20.30.40', '::1', '::ffff:127.0.0.1']) assert.equal(allowing.refusal(address), null, address);
    for (const address of ['127.0.0.2', '169.254.169.254', '192.168.1.1', 'fe80::1']) assert.ok(allowing.refusal(address), address);
  });

  test('the IPv4 address inside an IPv6 one', () => {
    assert.equal(embeddedIpv4('::ffff:127.0.0.1'), '127.0.0.1');
    assert.equal(embeddedIpv4('::ffff:a9fe:a9fe'), '169.254.169.254');
    assert.equal(embeddedIpv4('64:ff9b::0a00:0001'), '10.0.0.1');
    assert.equal(embeddedIpv4('::ffff:0:127.0.0.1'), '127.0.0.1');
    assert.equal(embeddedIpv4('2606:4700::1111'), null);
    assert.equal(embeddedIpv4('::1'), null);
  });
});

describe('the retry schedule', () => {
  const policy = { baseMs: 10_000, maxMs: 12 * 3_600_000, windowMs: 3 * 86_400_000 };

  test('delays double from the base up to the cap, each jittered by a quarter either way', () => {
    assert.equal(
      retryDelayMs(1, policy, () => 0.5),
      10_000,
    );
    assert.equal(
      retryDelayMs(2, policy, () => 0.5),
      20_000,
    );
    assert.equal(
      retryDelayMs(4, policy, () => 0.5),
      80_000,
    );
    assert.equal(
      retryDelayMs(30, policy, () => 0.5),
      12 * 3_600_000,
    );
    assert.equal(
      retryDelayMs(1, policy, () => 0),
      7_500,
    );
    assert.equal(
      retryDelayMs(1, policy, () => 0.999999),
      12_500,
    );
  });

  test('a delivery that always fails is tried for about three days, some 17 times, then given up', () => {
    const first = new Date('2026-01-01T00:00:00Z');
    let now = first;
    let attempts = 1;
    for (;;) {
      const next = nextAttemptAt(attempts, first, now, policy, () => 0.5);
      if (!next) break;
      now = next;
      attempts++;
    }
    const days = (now.getTime() - first.getTime()) / 86_400_000;
    assert.ok(days > 2.5 && days <= 3, `last attempt after ${days.toFixed(2)} days`);
    assert.ok(attempts >= 15 && attempts <= 20, `${attempts} attempts`);
  });
});

describe('Standard Webhooks signatures', () => {
  test('a reference library verifies them, with either secret during a rotation', () => {
    const [current, previous] = [newSigningSecret(), newSigningSecret()];
    assert.match(current, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({ id: 'evt_1', type: 'order.placed', data: { total: '9.99', note: 'café ☕' } });
    const headers = signatureHeaders([current, previous], 'evt_1', Math.floor(Date.now() / 1000), body);
    assert.equal(headers['webhook-signature'].split(' ').length, 2);
    for (const secret of [current, previous]) assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
    assert.throws(() => new Webhook(newSigningSecret()).verify(body, headers), /No matching signature/);
    assert.throws(() => new Webhook(current).verify(body.replace('9.99', '0.01'), headers), /No matching signature/);
  });
});

describe('webhook configuration', () => {
  test('defaults: in-process, 10 s attempts, retries for 3 days, paused after a day, https only, nothing allowed', () => {
    const config = loadConfig({});
    assert.equal(config.events.worker, 'in-process');
    assert.equal(config.webhooks.timeoutMs, 10_000);
    assert.equal(config.webhooks.retry.windowMs, 3 * 86_400_000);
    assert.equal(config.webhooks.pauseAfterMs, 86_400_000);
    assert.equal(config.webhooks.allowHttp, false);
    assert.deepEqual(config.webhooks.allowedNetworks, []);
    assert.equal(config.retention.events, 30 * 86_400);
    assert.equal(loadConfig({ WEBHOOK_PAUSE_AFTER: '0' }).webhooks.pauseAfterMs, null);
  });

  test('bad values stop start-up naming the variable', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1,localhost' }, /WEBHOOK_ALLOWED_NETWORKS must list IP addresses or CIDR ranges/],
      [{ WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/40' }, /WEBHOOK_ALLOWED_NETWORKS/],
      [{ EVENT_WORKER: 'maybe' }, /EVENT_WORKER must be in-process or off/],
      [{ EVENT_LEASE_MS: '5000', WEBHOOK_TIMEOUT_MS: '10000' }, /EVENT_LEASE_MS must be at least twice WEBHOOK_TIMEOUT_MS/],
      [{ WEBHOOK_RETRY_BASE_MS: '5000', WEBHOOK_RETRY_MAX_MS: '1000' }, /WEBHOOK_RETRY_MAX_MS must not be below/],
      [{ WEBHOOK_RETRY_FOR: 'three days' }, /WEBHOOK_RETRY_FOR must look like/],
    ];
    for (const [env, message] of cases) {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => error instanceof ConfigError && message.test(error.message),
        JSON.stringify(env),
      );
    }
  });
});

describe('the event catalog in the README', () => {
  test('lists every event type with its payload version, and nothing else', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Events and webhooks'), readme.indexOf('## Security'));
    const listed = [...section.matchAll(/^\| `([a-z_.]+)` \((\d+)\) \|/gm)].map((m) => `${m[1]} ${m[2]}`);
    assert.deepEqual(
      listed.sort(),
      Object.entries(EVENT_CATALOG)
        .map(([type, entry]) => `${type} ${entry.version}`)
        .sort(),
    );
  });
});
