import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freePort } from '../../src/lib/ports.js';
import { checkout, sellableVariant, shopper } from '../helpers/commerce.js';
import { signInAs } from '../helpers/factories.js';
import { waitFor } from '../helpers/mail.js';
import { fileDatabase, serviceTarget, startService } from '../helpers/service.js';

/**
 * /metrics on its own listener with a bearer token, reporting what the
 * service did: requests and errors by route, checkout outcomes, rate-limit
 * refusals, the pool and the outbox. Logs are JSON in production and
 * human-readable in development.
 */
const file = fileDatabase();

const TOKEN = 'scrape-token-0123456789';

/** The value of one sample line, e.g. sample(text, 'checkouts_total{outcome="placed"}'). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

test('metrics: requests, errors, checkout outcomes, refusals, pool and outbox, on their own token-guarded port', async () => {
  const metricsPort = await freePort();
  const service = await startService({
    databaseUrl: file.database.url,
    env: {
      NODE_ENV: 'production',
      METRICS_PORT: String(metricsPort),
      METRICS_TOKEN: TOKEN,
      RATE_LIMIT_CHECKOUT: '2/1m',
      RATE_LIMIT_REGISTER: '0',
      EMAIL_WORKER: 'off',
    },
  });
  try {
    const target = serviceTarget(service, file.db);
    const { client: admin } = await signInAs(target, 'ADMIN');
    const { variantId } = await sellableVariant(admin, { stock: 10 });
    const buyer = await shopper(target, [{ variantId, quantity: 1 }]);
    assert.equal((await checkout(buyer.client, buyer.addressId)).status, 201);
    assert.equal((await checkout(buyer.client, buyer.addressId)).status, 409); // the cart is empty now
    assert.equal((await checkout(buyer.client, buyer.addressId)).status, 429); // third within the minute

    const scrape = (headers: Record<string, string> = {}) => fetch(`http://127.0.0.1:${metricsPort}/metrics`, { headers });
    assert.equal((await scrape()).status, 401, 'no token, no metrics');
    assert.equal((await scrape({ authorization: 'Bearer wrong-token-0123456789' })).status, 401);
    assert.equal((await fetch(`${service.baseUrl}/metrics`)).status, 404, 'not on the public port');

    const response = await scrape({ authorization: `Bearer ${TOKEN}` });
    assert.equal(response.status, 200);
    const text = await response.text();
    assert.equal(sample(text, 'http_requests_total{method="POST",route="/api/v1/orders",status="201"}'), 1);
    assert.equal(sample(text, 'http_request_duration_seconds_count{method="POST",route="/api/v1/orders"}'), 3);
    assert.equal(sample(text, 'http_request_errors_total{method="POST",route="/api/v1/orders",code="CART_EMPTY"}'), 1);
    assert.equal(sample(text, 'checkouts_total{outcome="placed"}'), 1);
    assert.equal(sample(text, 'checkouts_total{outcome="CART_EMPTY"}'), 1);
    assert.equal(sample(text, 'checkouts_total{outcome="RATE_LIMITED"}'), 1);
    assert.equal(sample(text, 'rate_limit_refusals_total{route="/api/v1/orders"}'), 1);
    assert.equal(sample(text, 'db_pool_connections{state="max"}'), 20);
    // Background jobs (outbox relay, purges, pruning) may hold a connection at
    // the moment of the scrape, so only the sum of the states is certain.
    const open = sample(text, 'db_pool_connections{state="idle"}')! + sample(text, 'db_pool_connections{state="in_use"}')!;
    assert.ok(open >= 1 && open <= 20, `open connections: ${open}`);
    assert.equal(sample(text, 'db_pool_waiting_requests'), 0);
    // No worker runs (EMAIL_WORKER=off): the verification and the order confirmation wait.
    assert.equal(sample(text, 'outbox_pending_messages'), 2);
    assert.ok(sample(text, 'outbox_oldest_pending_age_seconds')! > 0);
    assert.ok(sample(text, 'process_resident_memory_bytes')! > 0, "Node's own metrics too");
    assert.ok(
      service.logs().length > 0 &&
        service
          .output()
          .split('\n')
          .filter(Boolean)
          .every((line) => line.startsWith('{')),
      'production logs are JSON lines',
    );
  } finally {
    await service.stop();
  }
});

test('development logs are human-readable', async () => {
  const service = await startService({ databaseUrl: file.database.url, env: { NODE_ENV: 'development' } });
  try {
    await waitFor(() => service.output().includes('Server listening'));
    const lines = service.output().split('\n').filter(Boolean);
    assert.ok(
      lines.some((line) => /INFO.*Server listening/.test(line)),
      service.output().slice(0, 1000),
    );
    assert.ok(!lines.some((line) => line.startsWith('{')), 'no JSON lines');
  } finally {
    await service.stop();
  }
});

test("a page's in-process API calls and the build's files it loads add no request lines at LOG_LEVEL=info (at debug they do)", async () => {
  for (const level of ['info', 'debug']) {
    const service = await startService({ databaseUrl: file.database.url, env: { LOG_LEVEL: level } });
    try {
      const page = await fetch(`${service.baseUrl}/`);
      assert.equal(page.status, 200);
      await page.text();
      const shell = await (await fetch(`${service.baseUrl}/admin`)).text();
      const asset = /\/admin\/assets\/[^"]+\.js/.exec(shell)?.[0];
      assert.ok(asset, "the console's shell names its script");
      assert.equal((await fetch(`${service.baseUrl}${asset}`)).status, 200);
      // A request after them all, logged at either level: once its line is read, theirs would have been too.
      assert.equal((await fetch(`${service.baseUrl}/health`)).status, 200);
      await service.waitForLog((l) => l.msg === 'incoming request' && (l.req as { url?: string }).url === '/health');
      const requests = service.logs().filter((l) => l.msg === 'incoming request');
      const urls = requests.map((l) => (l.req as { url?: string }).url);
      assert.ok(urls.includes('/') && urls.includes('/admin'), 'the page requests themselves are logged');
      const detail = urls.filter((url) => url?.startsWith('/api/v1/') || url === asset);
      if (level === 'info') assert.deepEqual(detail, []);
      else assert.ok(detail.includes(asset) && detail.some((url) => url?.startsWith('/api/v1/')), 'shown at debug');
    } finally {
      await service.stop();
    }
  }
});

test("an emailed link's token never reaches the log: the request line keeps the path and the other parameters", async () => {
  const service = await startService({ databaseUrl: file.database.url, env: { NODE_ENV: 'production', LOG_LEVEL: 'info' } });
  try {
    const secret = 'Tok3nThatOpensAnAccount0123456789';
    const links = [
      `/reset-password?token=${secret}`,
      `/verify-email?utm_source=mail&token=${secret}`,
      `/confirm-email-change?%74oken=${secret}`,
      `/admin/accept-invitation?token=${secret}`,
      `/api/v1/products?search=shoes&signature=${secret}`,
    ];
    for (const link of links) await (await fetch(`${service.baseUrl}${link}`)).arrayBuffer();
    await service.waitForLog((l) => (l.req as { url?: string } | undefined)?.url?.startsWith('/api/v1/products?') ?? false);
    assert.ok(!service.output().includes(secret), 'the token is nowhere in the output');
    const urls = service
      .logs()
      .filter((l) => l.msg === 'incoming request')
      .map((l) => (l.req as { url: string }).url);
    assert.ok(urls.includes('/reset-password?token=[redacted]'), urls.join('\n'));
    assert.ok(urls.includes('/verify-email?utm_source=mail&token=[redacted]'), urls.join('\n'));
    assert.ok(urls.includes('/confirm-email-change?%74oken=[redacted]'), 'an escaped name is the same parameter');
    assert.ok(urls.includes('/admin/accept-invitation?token=[redacted]'));
    assert.ok(urls.includes('/api/v1/products?search=shoes&signature=[redacted]'));
  } finally {
    await service.stop();
  }
});

test('metrics open beyond loopback without a token are warned about at start-up', async () => {
  const open = await startService({
    databaseUrl: file.database.url,
    env: { METRICS_HOST: '0.0.0.0', METRICS_PORT: String(await freePort()) },
  });
  const guarded = await startService({
    databaseUrl: file.database.url,
    env: { METRICS_HOST: '0.0.0.0', METRICS_PORT: String(await freePort()), METRICS_TOKEN: TOKEN },
  });
  try {
    await open.waitForLog((l) => l.msg === 'metrics at /metrics');
    await guarded.waitForLog((l) => l.msg === 'metrics at /metrics');
    const warned = (s: typeof open) =>
      s.logs().some((l) => String(l.msg).startsWith('metrics listen beyond loopback with no METRICS_TOKEN'));
    assert.ok(warned(open), 'no token: warned');
    assert.ok(!warned(guarded), 'a token: no warning');
  } finally {
    await open.stop();
    await guarded.stop();
  }
});
