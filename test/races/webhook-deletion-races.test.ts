import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.js';
import { recordEvent } from '../../src/events/repository.js';
import { deleteTarget } from '../../src/events/target-repository.js';
import { waitFor } from '../helpers/mail.js';
import { useApp } from '../helpers/use-app.js';
import { createEndpoint, LOCAL_RECEIVERS, startReceiver, WEBHOOKS } from '../helpers/webhooks.js';

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

async function targetId(publicId: string): Promise<number> {
  const row = await t.db.selectFrom('event_targets').select('id').where('public_id', '=', publicId).executeTakeFirstOrThrow();
  return row.id;
}

async function deliveriesOf(target: number) {
  return (await t.db.selectFrom('event_deliveries').select('state').where('target_id', '=', target).execute()).map((d) => d.state);
}

/** Resolves once some backend waits for a row lock in a statement matching `pattern`. */
const lockWaitIn = (db: Db, pattern: string) =>
  waitFor(async () => {
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE wait_event_type = 'Lock' AND query ILIKE ${pattern}`.execute(db);
    return rows[0]!.n > 0;
  }, 10_000);

test('a deletion waits for the event being written for its endpoint, then cancels its delivery', async () => {
  const receiver = await startReceiver();
  try {
    const endpoint = await createEndpoint(t.superAdmin, receiver.url, ['customer.registered']);
    const target = await targetId(endpoint.public_id);
    let deleted: Promise<number> | undefined;
    await t.db.transaction().execute(async (trx) => {
      await recordEvent(trx, 'customer.registered', 'usr_a', customer('a@example.com'));
      deleted = t.superAdmin.delete(`${WEBHOOKS}/endpoints/${endpoint.public_id}`).then((r) => r.status);
      // The deletion must wait for this transaction, not cancel around its uncommitted delivery.
      await Promise.race([
        lockWaitIn(t.db, '%event_targets%for update%'),
        deleted.then((status) => assert.fail(`the deletion answered ${status} while the event's transaction was open`)),
      ]);
    });
    assert.equal(await deleted, 204);
    assert.deepEqual(await deliveriesOf(target), ['CANCELLED']);
  } finally {
    await receiver.close();
  }
});

test('an event written while its endpoint is being deleted leaves the endpoint out', async () => {
  const receiver = await startReceiver();
  try {
    const endpoint = await createEndpoint(t.superAdmin, receiver.url, ['customer.registered']);
    const target = await targetId(endpoint.public_id);
    let written: Promise<string> | undefined;
    await t.db.transaction().execute(async (trx) => {
      await deleteTarget(trx, target, new Date());
      written = recordEvent(t.db, 'customer.registered', 'usr_b', customer('b@example.com'));
      // It waits for the deletion (or, were nothing to stop it, is written at once).
      await Promise.race([lockWaitIn(t.db, '%insert into%events%'), written]);
    });
    const event = await written!;
    assert.match(event, /^evt_/);
    assert.deepEqual(await deliveriesOf(target), [], 'no delivery for an endpoint deleted before the event committed');
  } finally {
    await receiver.close();
  }
});
