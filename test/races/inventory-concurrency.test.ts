import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errorOf, type Client } from '../helpers/factories.js';
import { INVENTORY, dbAudit, dbMovements, dbRecord, stockedVariant } from '../helpers/inventory.js';
import { useApp } from '../helpers/use-app.js';

const t = useApp({ as: ['ADMIN', 'SUPER_ADMIN'] });

interface Write {
  kind: 'RESERVE' | 'RELEASE' | 'ADJUST';
  onHand: number;
  reserved: number;
  send: (client: Client, v: string) => Promise<{ status: number; body: any; text: string }>;
}

const reserveWrite = (change: number): Write => ({
  kind: change > 0 ? 'RESERVE' : 'RELEASE',
  onHand: 0,
  reserved: change,
  send: (c, v) => c.patch(`${INVENTORY}/${v}/reservation`, { change, reason: `burst ${change}` }),
});
const adjustWrite = (change: number): Write => ({
  kind: 'ADJUST',
  onHand: change,
  reserved: 0,
  send: (c, v) => c.patch(`${INVENTORY}/${v}`, { quantity_change: change }),
});

/** 25 reserves of +1..+3 (49 units), 10 releases of -1, 8 adjusts of +2 and 7 of -3, interleaved. */
function mixedBurst(): Write[] {
  const writes: Write[] = [];
  let adjusts = 0;
  let releases = 0;
  for (let i = 0; i < 50; i++) {
    if (i % 2 === 0) writes.push(reserveWrite(1 + ((i / 2) % 3)));
    else if (i % 4 === 1 && releases < 10) {
      releases++;
      writes.push(reserveWrite(-1));
    } else writes.push(adjustWrite(adjusts++ % 2 === 0 ? 2 : -3));
  }
  return writes;
}

/** Replays the movements from the initial quantities, checking each row follows from the one before. */
function assertChain(
  rows: { kind: string; delta_on_hand: number; delta_reserved: number; on_hand_after: number; reserved_after: number }[],
  onHand: number,
  reserved: number,
) {
  for (const [i, row] of rows.entries()) {
    onHand += row.delta_on_hand;
    reserved += row.delta_reserved;
    assert.deepEqual(
      [row.on_hand_after, row.reserved_after],
      [onHand, reserved],
      `movement ${i} (${row.kind}) follows from the one before`,
    );
    assert.ok(row.on_hand_after >= 0 && row.reserved_after >= 0, `movement ${i} has no negative count`);
    if (row.kind === 'RESERVE') assert.ok(row.on_hand_after - row.reserved_after >= 0, `reserve ${i} left available >= 0`);
  }
  return { onHand, reserved };
}

describe('concurrent writes on one record', () => {
  test('50 simultaneous reserves, releases and adjusts: no update is lost and every rejection is a stock rule', async () => {
    const initial = { onHand: 10, reserved: 4 };
    const { variantPublicId: v } = await stockedVariant(t.admin, initial.onHand, { reserved: initial.reserved });
    const movementsBefore = await dbMovements(t, v);
    const auditBefore = await dbAudit(t, v);

    const writes = mixedBurst();
    assert.equal(writes.length, 50);
    assert.equal(
      writes.filter((w) => w.kind === 'RESERVE').reduce((sum, w) => sum + w.reserved, 0),
      49,
    );
    const responses = await Promise.all(writes.map((w, i) => w.send(i % 3 === 0 ? t.superAdmin : t.admin, v)));

    const accepted: Write[] = [];
    for (const [i, response] of responses.entries()) {
      if (response.status === 200) {
        accepted.push(writes[i]!);
        if (writes[i]!.kind === 'RESERVE')
          assert.ok(response.body.data.quantity_available >= 0, 'a reserve never leaves available negative');
      } else {
        assert.equal(response.status, 400, response.text);
        assert.equal(errorOf(response).code, 'STOCK_RULE_VIOLATION', `request ${i} (${writes[i]!.kind})`);
      }
    }
    // More is asked for than can ever be available (at most 6 + 16 + 10 = 32 < 49), so some reserves must fail.
    assert.ok(accepted.length < 50, 'some requests were rejected');
    assert.ok(
      accepted.some((w) => w.kind === 'RESERVE'),
      'some reserves went through',
    );

    const final = await dbRecord(t, v);
    const expectedOnHand = initial.onHand + accepted.reduce((sum, w) => sum + w.onHand, 0);
    const expectedReserved = initial.reserved + accepted.reduce((sum, w) => sum + w.reserved, 0);
    assert.deepEqual([final?.quantity_on_hand, final?.quantity_reserved], [expectedOnHand, expectedReserved]);

    // One movement and one audit entry per accepted change, with the deltas the requests asked for.
    const movements = (await dbMovements(t, v)).slice(movementsBefore.length);
    assert.equal(movements.length, accepted.length);
    assert.equal((await dbAudit(t, v)).length - auditBefore.length, accepted.length);
    const asked = (items: { kind: string; onHand: number; reserved: number }[]) =>
      items.map((w) => `${w.kind} ${w.onHand} ${w.reserved}`).sort();
    assert.deepEqual(asked(movements.map((m) => ({ kind: m.kind, onHand: m.delta_on_hand, reserved: m.delta_reserved }))), asked(accepted));
    // Applied one after another: each row follows from the previous one and ends at the final record.
    assert.deepEqual(assertChain(movements, initial.onHand, initial.reserved), { onHand: expectedOnHand, reserved: expectedReserved });
    // Each accepted response shows the state right after its own change.
    assert.deepEqual(
      responses
        .filter((r) => r.status === 200)
        .map((r) => `${r.body.data.quantity_on_hand}/${r.body.data.quantity_reserved}`)
        .sort(),
      movements.map((m) => `${m.on_hand_after}/${m.reserved_after}`).sort(),
    );

    // GET movements, newest first, lists them in the order they were applied.
    const listed = await t.admin.get(`${INVENTORY}/${v}/movements?limit=100`);
    assert.equal(listed.body.meta.total, movementsBefore.length + accepted.length);
    const oldestFirst = [...listed.body.data].reverse().map((m: any) => ({
      kind: m.kind,
      delta_on_hand: m.delta_on_hand,
      delta_reserved: m.delta_reserved,
      on_hand_after: m.quantity_on_hand_after,
      reserved_after: m.quantity_reserved_after,
    }));
    assertChain(oldestFirst, 0, 0);

    const record = (await t.admin.get(`${INVENTORY}/${v}`)).body.data;
    assert.equal(record.quantity_available, expectedOnHand - expectedReserved);
  });

  test('50 concurrent reserves of 1 with 20 available: exactly 20 succeed', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 25, { reserved: 5, reorderLevel: 3 });
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 ? t.admin : t.superAdmin).patch(`${INVENTORY}/${v}/reservation`, { change: 1 })),
    );
    const ok = responses.filter((r) => r.status === 200);
    assert.equal(ok.length, 20, responses.map((r) => r.status).join(','));
    for (const r of responses.filter((r) => r.status !== 200)) {
      assert.equal(r.status, 400, r.text);
      assert.equal(errorOf(r).code, 'STOCK_RULE_VIOLATION');
    }
    assert.deepEqual(
      ok.map((r) => r.body.data.quantity_reserved).sort((a, b) => a - b),
      Array.from({ length: 20 }, (_, i) => 6 + i),
    );
    const final = await dbRecord(t, v);
    assert.deepEqual([final?.quantity_on_hand, final?.quantity_reserved], [25, 25]);
    const record = (await t.admin.get(`${INVENTORY}/${v}`)).body.data;
    assert.equal(record.quantity_available, 0);
    assert.equal(record.stock_status, 'OUT_OF_STOCK');
    assert.equal((await dbMovements(t, v)).filter((m) => m.kind === 'RESERVE').length, 21);
    assert.equal((await dbAudit(t, v)).filter((a) => a.action === 'inventory.reserve').length, 21);
  });

  test('50 concurrent adjusts of -1 with 20 on hand: exactly 20 succeed and on-hand ends at 0', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 20);
    const responses = await Promise.all(Array.from({ length: 50 }, () => t.admin.patch(`${INVENTORY}/${v}`, { quantity_change: -1 })));
    assert.equal(responses.filter((r) => r.status === 200).length, 20);
    for (const r of responses.filter((r) => r.status !== 200)) assert.equal(errorOf(r).code, 'STOCK_RULE_VIOLATION');
    assert.equal((await dbRecord(t, v))?.quantity_on_hand, 0);
    const movements = await dbMovements(t, v);
    assert.equal(movements.length, 21);
    assertChain(movements, 0, 0);
  });

  test('concurrent set-to values and increments interleave without losing an increment', async () => {
    const { variantPublicId: v } = await stockedVariant(t.admin, 0);
    const responses = await Promise.all(Array.from({ length: 30 }, () => t.admin.patch(`${INVENTORY}/${v}`, { quantity_change: 1 })));
    for (const r of responses) assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      responses.map((r) => r.body.data.quantity_on_hand).sort((a, b) => a - b),
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
    assert.equal((await dbRecord(t, v))?.quantity_on_hand, 30);
  });
});
