import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { errorOf, signInAs } from './helpers/factories.js';
import { INVENTORY, createVariant, dbAudit, dbMovements, dbRecord, stateOf, stockedVariant, uniqueTag } from './helpers/inventory.js';
import { useApp } from './helpers/use-app.js';

const t = useApp({ as: ['ADMIN'] });

const key = (k: string) => ({ headers: { 'idempotency-key': k } });
const replayed = (response: { headers: Headers }) => response.headers.get('idempotent-replayed');

describe('Idempotency-Key on PATCH /admin/inventory/{var}', () => {
  test('the same key and body replays the first response and applies the change once', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 10);
    const k = uniqueTag('k');
    const first = await t.admin.patch(`${INVENTORY}/${v}`, { quantity_change: 5, reason: 'delivery' }, key(k));
    assert.equal(first.status, 200, first.text);
    assert.equal(replayed(first), null);
    assert.equal(first.body.data.quantity_on_hand, 15);

    const second = await t.admin.patch(`${INVENTORY}/${v}`, { quantity_change: 5, reason: 'delivery' }, key(k));
    assert.equal(second.status, 200, second.text);
    assert.equal(replayed(second), 'true');
    assert.deepEqual(second.body, first.body);

    // Same body with its keys in another order is the same request.
    const third = await t.admin.patch(`${INVENTORY}/${v}`, { reason: 'delivery', quantity_change: 5 }, key(k));
    assert.equal(replayed(third), 'true');
    assert.deepEqual(third.body, first.body);

    assert.equal((await dbRecord(t, v))?.quantity_on_hand, 15);
    assert.deepEqual(
      (await dbMovements(t, v)).map((m) => m.kind),
      ['CREATE', 'ADJUST'],
    );
    assert.deepEqual(
      (await dbAudit(t, v)).map((a) => a.action),
      ['inventory.create', 'inventory.adjust'],
    );
  });

  test('a replay returns the first response even after the record changed since', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 10);
    const first = await t.admin.patch(`${INVENTORY}/${v}`, { quantity_on_hand: 4 }, key('set-4'));
    assert.equal((await t.admin.patch(`${INVENTORY}/${v}`, { quantity_change: 3 })).status, 200);
    const replay = await t.admin.patch(`${INVENTORY}/${v}`, { quantity_on_hand: 4 }, key('set-4'));
    assert.equal(replayed(replay), 'true');
    assert.deepEqual(replay.body, first.body);
    assert.equal((await dbRecord(t, v))?.quantity_on_hand, 7);
  });

  test('the same key with a different body is 409 IDEMPOTENCY_KEY_REUSED and changes nothing', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 10);
    const k = uniqueTag('k');
    assert.equal((await t.admin.patch(`${INVENTORY}/${v}`, { quantity_change: 1 }, key(k))).status, 200);
    const before = await stateOf(t, v);
    for (const [path, body] of [
      [`${INVENTORY}/${v}`, { quantity_change: 2 }],
      [`${INVENTORY}/${v}`, { quantity_change: 1, reason: 'now with a reason' }],
      [`${INVENTORY}/${v}/reservation`, { change: 1 }],
    ] as const) {
      const response = await t.admin.patch(path, body, key(k));
      assert.equal(response.status, 409, response.text);
      assert.equal(errorOf(response).code, 'IDEMPOTENCY_KEY_REUSED');
    }
    const { variantPublicId: other } = await stockedVariant(t.admin, 10);
    const elsewhere = await t.admin.patch(`${INVENTORY}/${other}`, { quantity_change: 1 }, key(k));
    assert.equal(elsewhere.status, 409, 'the same body on another record is another request');
    assert.deepEqual(await stateOf(t, v), before);
    assert.equal((await dbRecord(t, other))?.quantity_on_hand, 10);
  });

  test('the same key from another admin account is independent', async () => {
    const otherAdmin = (await signInAs(t, 'ADMIN')).client;
    const { variantPublicId: v } = await stockedVariant(t.admin, 10);
    const k = uniqueTag('shared');
    const mine = await t.admin.patch(`${INVENTORY}/${v}`, { quantity_change: 2 }, key(k));
    const theirs = await otherAdmin.patch(`${INVENTORY}/${v}`, { quantity_change: 2 }, key(k));
    assert.equal(theirs.status, 200, theirs.text);
    assert.equal(replayed(theirs), null);
    assert.equal(mine.body.data.quantity_on_hand, 12);
    assert.equal(theirs.body.data.quantity_on_hand, 14);
    // The other admin's retry replays their own first response.
    const retry = await otherAdmin.patch(`${INVENTORY}/${v}`, { quantity_change: 2 }, key(k));
    assert.equal(replayed(retry), 'true');
    assert.deepEqual(retry.body, theirs.body);
    // A key one admin used with one body is free for another admin with another body.
    const k2 = uniqueTag('k2');
    assert.equal((await t.admin.patch(`${INVENTORY}/${v}/reservation`, { change: 1 }, key(k2))).status, 200);
    const different = await otherAdmin.patch(`${INVENTORY}/${v}/reservation`, { change: 2 }, key(k2));
    assert.equal(different.status, 200, different.text);
    assert.equal(replayed(different), null);
    assert.equal((await dbRecord(t, v))?.quantity_reserved, 3);
    assert.equal((await dbRecord(t, v))?.quantity_on_hand, 14);
    assert.equal((await dbMovements(t, v)).filter((m) => m.kind === 'ADJUST').length, 2);
  });

  test('10 concurrent requests with the same key and body apply the change exactly once', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 10);
    const k = uniqueTag('burst');
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => t.admin.patch(`${INVENTORY}/${v}`, { quantity_change: -3 }, key(k))),
    );
    for (const r of responses) assert.equal(r.status, 200, r.text);
    assert.equal(responses.filter((r) => replayed(r) === 'true').length, 9);
    for (const r of responses) assert.deepEqual(r.body, responses[0]!.body);
    assert.equal(responses[0]!.body.data.quantity_on_hand, 7);
    assert.equal((await dbRecord(t, v))?.quantity_on_hand, 7);
    assert.equal((await dbMovements(t, v)).length, 2);
    assert.equal((await dbAudit(t, v)).length, 2);
  });

  test('a key older than 24 hours no longer replays', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 10);
    const k = uniqueTag('old');
    await t.admin.patch(`${INVENTORY}/${v}`, { quantity_change: 1 }, key(k));
    // created_at is insert-only in the schema types; age the key with SQL.
    await sql`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = ${k}`.execute(t.db);
    const again = await t.admin.patch(`${INVENTORY}/${v}`, { quantity_change: 5 }, key(k));
    assert.equal(again.status, 200, again.text);
    assert.equal(replayed(again), null);
    assert.equal((await dbRecord(t, v))?.quantity_on_hand, 16);
  });

  test('a key of 255 characters is accepted, 256 is 400', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 10);
    assert.equal((await t.admin.patch(`${INVENTORY}/${v}`, { quantity_change: 1 }, key('k'.repeat(255)))).status, 200);
    const before = await stateOf(t, v);
    const long = await t.admin.patch(`${INVENTORY}/${v}`, { quantity_change: 1 }, key('k'.repeat(256)));
    assert.equal(long.status, 400, long.text);
    assert.equal(errorOf(long).code, 'VALIDATION_ERROR');
    assert.deepEqual(await stateOf(t, v), before);
  });
});

describe('Idempotency-Key on the other inventory writes', () => {
  test('PATCH reservation replays and reserves once', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 10);
    const first = await t.admin.patch(`${INVENTORY}/${v}/reservation`, { change: 4 }, key('hold-1'));
    const second = await t.admin.patch(`${INVENTORY}/${v}/reservation`, { change: 4 }, key('hold-1'));
    assert.equal(second.status, 200);
    assert.equal(replayed(second), 'true');
    assert.deepEqual(second.body, first.body);
    assert.equal((await dbRecord(t, v))?.quantity_reserved, 4);
    assert.deepEqual(
      (await dbMovements(t, v)).map((m) => m.kind),
      ['CREATE', 'RESERVE'],
    );
  });

  test('POST create replays 201 with the first body instead of 409 INVENTORY_EXISTS', async () => {
    const { variantPublicId: v } = await createVariant(t.admin);
    const body = { variant_public_id: v, quantity_on_hand: 6 };
    const first = await t.admin.post(INVENTORY, body, key('create-1'));
    assert.equal(first.status, 201, first.text);
    const second = await t.admin.post(INVENTORY, body, key('create-1'));
    assert.equal(second.status, 201, second.text);
    assert.equal(replayed(second), 'true');
    assert.deepEqual(second.body, first.body);
    const withoutKey = await t.admin.post(INVENTORY, body);
    assert.equal(withoutKey.status, 409);
    assert.equal(errorOf(withoutKey).code, 'INVENTORY_EXISTS');
    assert.equal((await dbMovements(t, v)).length, 1);
  });
});
