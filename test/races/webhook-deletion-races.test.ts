import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { insertFirstDeliveries } from '../../src/events/delivery-repository.js';
import { recordEvent } from '../../src/events/repository.js';
import { someoneWaitsOnALock } from '../helpers/lock-waits.js';
import { useApp } from '../helpers/use-app.js';
import { createEndpoint, deliverDue, LOCAL_RECEIVERS, startReceiver, WEBHOOKS, type Receiver } from '../helpers/webhooks.js';

/**
 * An endpoint deleted while an event for it is being written, or while a
 * dispatcher is sending to it (src/db/LOCKING.md, migrations 0023, 0024). The
 * deletion waits for neither (under steady checkout load one always is, and
 * a deletion that waited for a moment with none could wait for ever); its
 * cursor is not read once the deletion has committed, and a retry that a
 * dispatcher's batch commits for it afterwards is cancelled by the pruner,
 * so nothing is left waiting for an endpoint that is gone.
 */
const t = useApp({
  env: { ...LOCAL_RECEIVERS, EVENT_WORKER: 'off', EMAIL_WORKER: 'off' },
  as: ['SUPER_ADMIN'],
});

const customer = (email: string) => ({
  customer: {
    public_id: `usr_${email}`,
    email,
    first_name: 'Ada',
    last_name: 'Lovelace',
    phone_number: null,
    created_at: new Date().toISOString(),
  },
});

let receiver: Receiver;
before(async () => (receiver = await startReceiver()));
after(() => receiver.close());

/** A new endpoint subscribed to customer.registered, with its target's id. */
async function newEndpoint() {
  const endpoint = await createEndpoint(t.superAdmin, receiver.url, ['customer.registered']);
  const row = await t.db.selectFrom('event_targets').select('id').where('public_id', '=', endpoint.public_id).executeTakeFirstOrThrow();
  return { endpoint, target: row.id };
}

async function deliveriesOf(target: number) {
  return (await t.db.selectFrom('event_deliveries').select('state').where('target_id', '=', target).execute()).map((d) => d.state);
}

test('a deletion does not wait for an event being written for its endpoint; that event is never sent to it', async () => {
  const deleted = await newEndpoint();
  const kept = await newEndpoint();
  await t.db.transaction().execute(async (trx) => {
    await recordEvent(trx, 'customer.registered', 'usr_a', customer('a@example.com'));
    const answer = t.superAdmin.delete(`${WEBHOOKS}/endpoints/${deleted.endpoint.public_id}`).then((r) => r.status);
    const waited = someoneWaitsOnALock(t.db, '%event_targets%').then(() => 'waited on the open event' as const);
    assert.equal(await Promise.race([answer, waited]), 204);
  });
  assert.equal(await deliverDue(t), 1, 'only the live endpoint is sent to');
  const arrivals = await receiver.waitFor((all) => (all.length === 1 ? all : null));
  assert.equal(arrivals[0]!.event.data.customer.email, 'a@example.com');

  assert.equal((await t.app.pruner.runOnce()).deliveriesCancelled, 0);
  assert.deepEqual(await deliveriesOf(deleted.target), [], 'its cursor was never read');
  assert.deepEqual(await deliveriesOf(kept.target), ['SUCCEEDED']);
  assert.equal(receiver.arrivals.length, 1, 'the deleted endpoint was never sent to');
});

test("the pruner leaves a deleted endpoint's delivery alone while a live claim is sending it, and cancels it once the lease is over", async () => {
  const { endpoint, target } = await newEndpoint();
  const publicId = await recordEvent(t.db, 'customer.registered', 'usr_c', customer('c@example.com'));
  const event = await t.db.selectFrom('events').select(['id', 'created_at']).where('public_id', '=', publicId).executeTakeFirstOrThrow();
  assert.equal((await t.superAdmin.delete(`${WEBHOOKS}/endpoints/${endpoint.public_id}`)).status, 204);
  // A dispatcher that read the event before the deletion, and whose attempt failed, commits its retry after it.
  const now = new Date();
  const failed = { ok: false, attempts: 1, startedAt: now, status: 500, body: '', latencyMs: 1, error: 'HTTP 500' };
  await insertFirstDeliveries(
    t.db,
    target,
    [{ eventId: event.id, orderingKey: 'usr_c', eventCreatedAt: event.created_at, attempt: failed, retryAt: now }],
    now,
  );
  // As a claim of that retry taken in the same moment leaves it: claimed, hidden until its lease ends.
  const claimed = sql`UPDATE event_deliveries SET claim = gen_random_uuid(), next_attempt_at = now() + interval '1 minute' WHERE target_id = ${target}`;
  await claimed.execute(t.db);
  assert.equal((await t.app.pruner.runOnce()).deliveriesCancelled, 0, 'its sender will mark what happened');
  assert.deepEqual(await deliveriesOf(target), ['PENDING']);
  await sql`UPDATE event_deliveries SET next_attempt_at = now() - interval '1 second' WHERE target_id = ${target}`.execute(t.db);
  assert.equal((await t.app.pruner.runOnce()).deliveriesCancelled, 1, 'a lapsed lease: no one is sending it');
  assert.deepEqual(await deliveriesOf(target), ['CANCELLED']);
});
