import assert from 'node:assert/strict';
import pg from 'pg';
import type { TestTarget } from './app.js';
import { checkout, inBatches, sellableVariant, shopper } from './commerce.js';
import { signInAs } from './factories.js';
import { sleep } from './mail.js';
import type { ServiceProcess } from './service.js';

/**
 * Requests held in flight for shutdown tests, deterministically: the test
 * locks a variant's stock row, so every checkout of it waits on that lock in
 * the service until the test lets go.
 */
export interface InFlight {
  variantId: string;
  /** The open transaction holding the variant's stock row (FOR UPDATE). */
  lock: pg.Client;
  responses: Promise<{ status: number; text: string }>[];
  /** Which checkouts have answered (or failed) so far. */
  settled: boolean[];
}

/** `count` shoppers checking out one variant on `service` (reached through `target`), all waiting on its locked stock row. */
export async function checkoutsInFlight(
  service: ServiceProcess,
  target: TestTarget,
  databaseUrl: string,
  count: number,
): Promise<InFlight> {
  const { client: admin } = await signInAs(target, 'ADMIN');
  const { variantId } = await sellableVariant(admin, { stock: 1000 });
  const shoppers = await inBatches(count, 6, () => shopper(target, [{ variantId, quantity: 1 }]));

  const lock = new pg.Client({ connectionString: databaseUrl });
  lock.on('error', () => {}); // the database is dropped (or stopped) under it if a test fails midway
  await lock.connect();
  await lock.query('BEGIN');
  await lock.query('SELECT 1 FROM inventory i JOIN variants v ON v.id = i.variant_id WHERE v.public_id = $1 FOR UPDATE OF i', [variantId]);

  const settled: boolean[] = [];
  const responses = shoppers.map((s, i) =>
    checkout(s.client, s.addressId).then(
      (response) => ((settled[i] = true), response),
      (error: unknown) => ((settled[i] = true), { status: 0, text: String(error), body: null }),
    ),
  );
  // Every checkout has reached the service before the signal.
  const seen = () =>
    service.logs().filter((l) => l.msg === 'incoming request' && (l.req as { url?: string })?.url === '/api/v1/orders').length;
  for (let waited = 0; seen() < count; waited += 20) {
    if (waited > 20_000) throw new Error(`only ${seen()} of ${count} checkouts reached the service`);
    await sleep(20);
  }
  return { variantId, lock, responses, settled };
}

/**
 * After the signal: the service keeps draining and refuses new connections
 * while the checkouts wait; once the lock goes, every one answers 201 and the
 * process exits 0 within the grace period.
 */
export async function drains(service: ServiceProcess, { lock, responses, settled }: InFlight) {
  const signalled = Date.now();
  await sleep(500);
  assert.equal(service.child.exitCode, null, `still draining:\n${service.output().slice(-2000)}`);
  assert.equal(settled.filter(Boolean).length, 0, 'no checkout has answered yet');
  await assert.rejects(fetch(`${service.baseUrl}/health`), 'no new connections are accepted');

  await lock.query('COMMIT');
  await lock.end();
  for (const response of await Promise.all(responses)) assert.equal(response.status, 201, response.text);
  const { code } = await service.exited;
  assert.equal(code, 0, service.output().slice(-2000));
  assert.ok(Date.now() - signalled < 10_000, 'shutdown finished within the grace period');
  assert.ok(service.logs().some((l) => l.msg === 'shutdown complete'));
  await service.stop();
}
