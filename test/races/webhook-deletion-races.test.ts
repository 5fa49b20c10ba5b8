import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { recordEvent } from '../../src/events/repository.js';
import { deleteTarget } from '../../src/events/target-repository.js';
import { someoneWaitsOnALock } from '../helpers/lock-waits.js';
import { useApp } from '../helpers/use-app.js';
import { createEndpoint, LOCAL_RECEIVERS, startReceiver, WEBHOOKS, type Receiver } from '../helpers/webhooks.js';

/**
 * An endpoint deleted while an event for it is being written (src/db/LOCKING.md,
 * migration 0022): the event's transaction is held open at the moment that
 * matters, and the other side is started against it. Whichever commits
 * first, no PENDING delivery is left for the deleted endpoint (nothing would
 * ever send or prune it). Before, the deletion cancelled only the deliveries
 * it could see, and a fan-out that had chosen the endpoint committed one after it.
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

test('a deletion waits for the event being written for its endpoint, then cancels its delivery', async () => {
  const { endpoint, target } = await newEndpoint();
  let deleted: Promise<number> | undefined;
  await t.db.transaction().execute(async (trx) => {
    await recordEvent(trx, 'customer.registered', 'usr_a', customer('a@example.com'));
    deleted = t.superAdmin.delete(`${WEBHOOKS}/endpoints/${endpoint.public_id}`).then((r) => r.status);
    // The deletion must wait for this transaction, not cancel around its uncommitted delivery.
    await Promise.race([
      someoneWaitsOnALock(t.db, '%event_targets%for update%'),
      deleted.then((status) => assert.fail(`the deletion answered ${status} while the event's transaction was open`)),
    ]);
  });
  assert.equal(await deleted, 204);
  assert.deepEqual(await deliveriesOf(target), ['CANCELLED']);
});

test('an event written while its endpoint is being deleted leaves the endpoint out', async () => {
  const { target } = await newEndpoint();
  let written: Promise<string> | undefined;
  await t.db.transaction().execute(async (trx) => {
    await deleteTarget(trx, target, new Date());
    written = recordEvent(t.db, 'customer.registered', 'usr_b', customer('b@example.com'));
    // It waits for the deletion (or, were nothing to stop it, is written at once).
    await Promise.race([someoneWaitsOnALock(t.db, '%insert into%events%'), written]);
  });
  const event = await written!;
  assert.match(event, /^evt_/);
  assert.deepEqual(await deliveriesOf(target), [], 'no delivery for an endpoint deleted before the event committed');
});
