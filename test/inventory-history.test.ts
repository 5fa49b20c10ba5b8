import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errorOf } from './helpers/factories.js';
import { INVENTORY, ISO_UTC, createRecord, createVariant, dbAudit, dbMovements, stateOf, stockedVariant } from './helpers/inventory.js';
import { useApp } from './helpers/use-app.js';

const t = useApp({ as: ['ADMIN', 'SUPER_ADMIN'] });

const ok = async (response: Promise<{ status: number; text: string }>) => {
  const r = await response;
  assert.ok(r.status === 200 || r.status === 201, r.text);
};

/** create 10 (reorder 2) -> adjust +5 -> reserve 4 -> set on-hand 8 -> release 3 -> reorder only, by two admins. */
async function history() {
  const variant = await createVariant(t.admin);
  const v = variant.variantPublicId;
  await createRecord(t.admin, v, 10, 2);
  await ok(t.admin.patch(`${INVENTORY}/${v}`, { quantity_change: 5, reason: 'delivery #1' }));
  await ok(t.superAdmin.patch(`${INVENTORY}/${v}/reservation`, { change: 4, reason: 'photoshoot' }));
  await ok(t.admin.patch(`${INVENTORY}/${v}`, { quantity_on_hand: 8, reason: 'stock count' }));
  await ok(t.superAdmin.patch(`${INVENTORY}/${v}/reservation`, { change: -3 }));
  await ok(t.admin.patch(`${INVENTORY}/${v}`, { reorder_level: 6, reason: 'new threshold' }));
  return v;
}

describe('stock movements', () => {
  test('every stock change writes one row with deltas, after-values, reason and actor', async () => {
    const v = await history();
    const rows = (await dbMovements(t, v)).map(({ id: _id, ...row }) => row);
    assert.deepEqual(rows, [
      {
        kind: 'CREATE',
        delta_on_hand: 10,
        delta_reserved: 0,
        on_hand_after: 10,
        reserved_after: 0,
        reason: null,
        actor_public_id: t.admin.user.public_id,
      },
      {
        kind: 'ADJUST',
        delta_on_hand: 5,
        delta_reserved: 0,
        on_hand_after: 15,
        reserved_after: 0,
        reason: 'delivery #1',
        actor_public_id: t.admin.user.public_id,
      },
      {
        kind: 'RESERVE',
        delta_on_hand: 0,
        delta_reserved: 4,
        on_hand_after: 15,
        reserved_after: 4,
        reason: 'photoshoot',
        actor_public_id: t.superAdmin.user.public_id,
      },
      {
        kind: 'ADJUST',
        delta_on_hand: -7,
        delta_reserved: 0,
        on_hand_after: 8,
        reserved_after: 4,
        reason: 'stock count',
        actor_public_id: t.admin.user.public_id,
      },
      {
        kind: 'RELEASE',
        delta_on_hand: 0,
        delta_reserved: -3,
        on_hand_after: 8,
        reserved_after: 1,
        reason: null,
        actor_public_id: t.superAdmin.user.public_id,
      },
    ]);
  });

  test('GET movements lists them newest first with the actor, in the page envelope', async () => {
    const v = await history();
    const response = await t.admin.get(`${INVENTORY}/${v}/movements`);
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.success, true);
    assert.deepEqual(response.body.meta, { page: 1, limit: 20, total: 5, totalPages: 1, hasNext: false, hasPrev: false });
    const data = response.body.data as any[];
    assert.deepEqual(
      data.map((m) => [
        m.kind,
        m.delta_on_hand,
        m.delta_reserved,
        m.quantity_on_hand_after,
        m.quantity_reserved_after,
        m.reason,
        m.actor?.public_id,
      ]),
      [
        ['RELEASE', 0, -3, 8, 1, null, t.superAdmin.user.public_id],
        ['ADJUST', -7, 0, 8, 4, 'stock count', t.admin.user.public_id],
        ['RESERVE', 0, 4, 15, 4, 'photoshoot', t.superAdmin.user.public_id],
        ['ADJUST', 5, 0, 15, 0, 'delivery #1', t.admin.user.public_id],
        ['CREATE', 10, 0, 10, 0, null, t.admin.user.public_id],
      ],
    );
    assert.deepEqual(data[0].actor, { public_id: t.superAdmin.user.public_id, email: t.superAdmin.email });
    assert.equal(data[0].order_public_id, null);
    for (const m of data) assert.match(m.created_at, ISO_UTC);
    for (let i = 1; i < data.length; i++)
      assert.ok(data[i - 1].created_at >= data[i].created_at, 'created_at never increases down the list');

    const page2 = await t.admin.get(`${INVENTORY}/${v}/movements?limit=2&page=2`);
    assert.deepEqual(
      page2.body.data.map((m: any) => m.kind),
      ['RESERVE', 'ADJUST'],
    );
    assert.deepEqual(page2.body.meta, { page: 2, limit: 2, total: 5, totalPages: 3, hasNext: true, hasPrev: true });
    const past = await t.admin.get(`${INVENTORY}/${v}/movements?limit=2&page=4`);
    assert.deepEqual(past.body.data, []);
    assert.deepEqual(past.body.meta, { page: 4, limit: 2, total: 5, totalPages: 3, hasNext: false, hasPrev: true });
    assert.equal((await t.admin.get(`${INVENTORY}/${v}/movements?limit=101`)).status, 400);
  });

  test('movements of a variant without a record are 404', async () => {
    const bare = await createVariant(t.admin);
    const response = await t.admin.get(`${INVENTORY}/${bare.variantPublicId}/movements`);
    assert.equal(response.status, 404);
    assert.equal(errorOf(response).code, 'NOT_FOUND');
  });

  test('a reorder-level-only change and a no-op set write no movement', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 5);
    await ok(t.admin.patch(`${INVENTORY}/${v}`, { reorder_level: 1 }));
    await ok(t.admin.patch(`${INVENTORY}/${v}`, { quantity_on_hand: 5 }));
    assert.deepEqual(
      (await dbMovements(t, v)).map((m) => m.kind),
      ['CREATE'],
    );
  });
});

describe('audit log', () => {
  test('inventory.create/adjust/reserve/release entries carry before, after, reason and actor', async () => {
    const v = await history();
    const rows = await dbAudit(t, v);
    const q = (onHand: number, reserved: number, reorder: number | null) => ({
      quantity_on_hand: onHand,
      quantity_reserved: reserved,
      reorder_level: reorder,
    });
    assert.deepEqual(
      rows.map((r) => [r.action, r.actor_public_id, r.changes, r.reason]),
      [
        ['inventory.create', t.admin.user.public_id, { before: null, after: q(10, 0, 2) }, null],
        ['inventory.adjust', t.admin.user.public_id, { before: q(10, 0, 2), after: q(15, 0, 2) }, 'delivery #1'],
        ['inventory.reserve', t.superAdmin.user.public_id, { before: q(15, 0, 2), after: q(15, 4, 2) }, 'photoshoot'],
        ['inventory.adjust', t.admin.user.public_id, { before: q(15, 4, 2), after: q(8, 4, 2) }, 'stock count'],
        ['inventory.release', t.superAdmin.user.public_id, { before: q(8, 4, 2), after: q(8, 1, 2) }, null],
        ['inventory.adjust', t.admin.user.public_id, { before: q(8, 1, 2), after: q(8, 1, 6) }, 'new threshold'],
      ],
    );
    assert.deepEqual(
      rows.map((r) => r.actor_role),
      ['ADMIN', 'ADMIN', 'SUPER_ADMIN', 'ADMIN', 'SUPER_ADMIN', 'ADMIN'],
    );
  });

  test("the audit entry has the service's request id (not the caller's), the ip and user agent of the write", async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 5);
    const response = await t.admin.patch(
      `${INVENTORY}/${v}`,
      { quantity_change: 1 },
      { headers: { 'x-request-id': 'inv-audit-1', 'user-agent': 'inventory-test/1.0' } },
    );
    assert.equal(response.status, 200, response.text);
    const row = await t.db
      .selectFrom('audit_log')
      .select(['request_id', 'ip', 'user_agent', 'entity_type', 'public_id'])
      .where('entity_public_id', '=', v)
      .where('action', '=', 'inventory.adjust')
      .executeTakeFirstOrThrow();
    assert.equal(row.request_id, response.headers.get('x-request-id'));
    assert.notEqual(row.request_id, 'inv-audit-1');
    assert.equal(row.user_agent, 'inventory-test/1.0');
    assert.ok(row.ip);
    assert.equal(row.entity_type, 'inventory');
    assert.match(row.public_id, /^aud_/);
  });

  test('rejected writes write neither a movement nor an audit entry', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 3, { reserved: 1 });
    const before = await stateOf(t, v);
    const attempts: [string, () => Promise<{ status: number; body: any; text: string }>, number][] = [
      ['on-hand below zero', () => t.admin.patch(`${INVENTORY}/${v}`, { quantity_change: -4, reason: 'x' }), 400],
      ['over-reserve', () => t.admin.patch(`${INVENTORY}/${v}/reservation`, { change: 3, reason: 'x' }), 400],
      ['over-release', () => t.admin.patch(`${INVENTORY}/${v}/reservation`, { change: -2 }), 400],
      ['both fields', () => t.admin.patch(`${INVENTORY}/${v}`, { quantity_on_hand: 1, quantity_change: 1 }), 400],
      ['reason too long', () => t.admin.patch(`${INVENTORY}/${v}`, { quantity_change: 1, reason: 'r'.repeat(256) }), 400],
      ['duplicate create', () => t.admin.post(INVENTORY, { variant_public_id: v, quantity_on_hand: 9 }), 409],
    ];
    for (const [name, send, status] of attempts) {
      const response = await send();
      assert.equal(response.status, status, `${name}: ${response.text}`);
      errorOf(response);
    }
    assert.deepEqual(await stateOf(t, v), before);
  });
});
