import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Client, Response } from './helpers/client.js';
import { errorOf, signInAs } from './helpers/factories.js';
import { ok } from './helpers/orders.js';
import { useApp } from './helpers/use-app.js';

/** Contract section 12, reading the log: GET /admin/audit newest first, filtered by actor, action and entity, paged by time, and as CSV. */

const AUDIT = '/api/v1/admin/audit';
const A = '/api/v1/admin';
const tag = () => randomBytes(4).toString('hex').toUpperCase();

const t = useApp({ env: { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_CHECKOUT: '0' }, as: ['SUPER_ADMIN'] });

describe('GET /admin/audit', () => {
  /** A fresh ADMIN that signs in (auth.login) then creates three categories. */
  async function actorWithHistory() {
    const actor = await signInAs(t, 'ADMIN');
    const categories: string[] = [];
    for (let i = 0; i < 3; i++) categories.push(ok(await actor.client.post(`${A}/categories`, { name: `Audit ${tag()}` }), 201).public_id);
    return { ...actor, categories };
  }
  const list = async (client: Client, query: string) => {
    const response = await client.get(`${AUDIT}?${query}`);
    ok(response);
    return response;
  };
  const actions = (response: Response) => response.body.data.map((e: any) => `${e.action} ${e.entity_public_id}`);

  test('newest first, filtered by actor (usr_ ID or email), action, entity type and ID', async () => {
    const actor = await actorWithHistory();
    const expected = [...actor.categories]
      .reverse()
      .map((c) => `category.create ${c}`)
      .concat(`auth.login ${actor.user.public_id}`);
    const byId = await list(t.superAdmin, `actor=${actor.user.public_id}`);
    assert.deepEqual(actions(byId), expected);
    assert.equal(byId.body.meta.total, 4);
    assert.deepEqual(actions(await list(t.superAdmin, `actor=${encodeURIComponent(actor.email.toUpperCase())}`)), expected);

    const entry = byId.body.data[0];
    assert.deepEqual(entry.actor, { public_id: actor.user.public_id, email: actor.email, role: 'ADMIN' });
    assert.deepEqual(Object.keys(entry).sort(), [
      'action',
      'actor',
      'changes',
      'created_at',
      'entity_label',
      'entity_public_id',
      'entity_type',
      'ip',
      'public_id',
      'reason',
      'request_id',
      'user_agent',
    ]);
    assert.match(entry.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(entry.changes.before, null);
    assert.equal(typeof entry.changes.after.name, 'string');

    const creates = await list(t.superAdmin, `action=category.create&actor=${actor.user.public_id}`);
    assert.equal(creates.body.meta.total, 3);
    const logins = await list(t.superAdmin, `action=auth.login&entity_type=user&entity_public_id=${actor.user.public_id}`);
    assert.deepEqual(actions(logins), [`auth.login ${actor.user.public_id}`]);
    const one = await list(t.superAdmin, `entity_type=category&entity_public_id=${actor.categories[1]}`);
    assert.deepEqual(actions(one), [`category.create ${actor.categories[1]}`]);
    assert.equal((await list(t.superAdmin, `entity_type=order&entity_public_id=${actor.categories[1]}`)).body.meta.total, 0);
    assert.equal((await list(t.superAdmin, 'actor=nobody@example.test')).body.meta.total, 0);

    const all = (await list(t.superAdmin, 'limit=100')).body.data as any[];
    const times = all.map((e) => Date.parse(e.created_at));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
      'the whole log is newest first',
    );
  });

  test('from is inclusive, to exclusive; pages neither repeat nor skip', async () => {
    const actor = await actorWithHistory();
    const entries = (await list(t.superAdmin, `actor=${actor.user.public_id}`)).body.data as any[];
    const [third, second, first] = [entries[0], entries[1], entries[2]];
    const window = await list(
      t.superAdmin,
      `actor=${actor.user.public_id}&from=${encodeURIComponent(first.created_at)}&to=${encodeURIComponent(third.created_at)}`,
    );
    assert.deepEqual(
      window.body.data.map((e: any) => e.public_id),
      [second.public_id, first.public_id],
    );
    const since = await list(t.superAdmin, `actor=${actor.user.public_id}&from=${encodeURIComponent(second.created_at)}`);
    assert.deepEqual(
      since.body.data.map((e: any) => e.public_id),
      [third.public_id, second.public_id],
    );

    const seen: string[] = [];
    for (const page of [1, 2]) {
      const response = await list(t.superAdmin, `actor=${actor.user.public_id}&limit=3&page=${page}`);
      assert.deepEqual(response.body.meta, { page, limit: 3, total: 4, totalPages: 2, hasNext: page === 1, hasPrev: page === 2 });
      seen.push(...response.body.data.map((e: any) => e.public_id));
    }
    assert.deepEqual(
      seen,
      entries.map((e) => e.public_id),
    );
    assert.deepEqual((await list(t.superAdmin, `actor=${actor.user.public_id}&limit=3&page=3`)).body.data, []);

    // Exact bounds, on entries whose times have no sub-millisecond part.
    const expense = `exp_${tag()}${tag()}${tag()}`;
    for (const second of [0, 1, 2]) {
      await sql`INSERT INTO audit_log (public_id, action, entity_type, entity_public_id, created_at)
                VALUES (${`aud_${tag()}${tag()}${tag()}`}, 'expense.update', 'expense', ${expense}, ${new Date(Date.UTC(2020, 0, 1, 0, 0, second))})`.execute(
        t.db,
      );
    }
    const bounded = await list(
      t.superAdmin,
      `action=expense.update&entity_public_id=${expense}&from=2020-01-01T00:00:00.000Z&to=2020-01-01T00:00:02.000Z`,
    );
    assert.deepEqual(
      bounded.body.data.map((e: any) => e.created_at),
      ['2020-01-01T00:00:01.000Z', '2020-01-01T00:00:00.000Z'],
    );
    assert.equal(bounded.body.data[0].actor, null);

    for (const query of [
      'from=yesterday',
      'to=2026-13-01T00:00:00Z',
      'limit=0',
      'page=0',
      'format=pdf',
      'action=no.such_action',
      'entity_type=thing',
    ]) {
      const response = await t.superAdmin.get(`${AUDIT}?${query}`);
      assert.equal(response.status, 400, `${query}: ${response.text}`);
      assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
    }
  });

  test('CSV export: the whole filtered log as rows under a header, whatever the page', async () => {
    const actor = await actorWithHistory();
    const json = (await list(t.superAdmin, `actor=${actor.user.public_id}`)).body.data as any[];
    for (const [query, headers] of [
      ['&format=csv', {}],
      ['', { accept: 'text/csv' }],
    ] as const) {
      const response = await t.superAdmin.get(`${AUDIT}?actor=${actor.user.public_id}&limit=1&page=2${query}`, { headers });
      assert.equal(response.status, 200, response.text);
      assert.match(response.headers.get('content-type') ?? '', /^text\/csv/);
      assert.match(response.headers.get('content-disposition') ?? '', /attachment; filename="audit-log\.csv"/);
      const lines = response.text.split('\r\n');
      assert.equal(
        lines[0],
        'public_id,created_at,actor_public_id,actor_email,actor_role,action,entity_type,entity_public_id,entity_label,reason,ip,request_id,changes',
      );
      assert.equal(lines.at(-1), '');
      const rows = lines.slice(1, -1);
      assert.equal(rows.length, json.length);
      rows.forEach((row, i) => {
        assert.ok(
          row.startsWith(`${json[i].public_id},${json[i].created_at},${actor.user.public_id},${actor.email},ADMIN,${json[i].action},`),
          row,
        );
      });
      // JSON changes are one quoted cell with doubled quotes.
      assert.ok(rows[0]!.endsWith(`"${JSON.stringify(json[0].changes).replace(/"/g, '""')}"`), rows[0]);
    }
  });

  test('CSV export streams a log longer than one batch, in order, with nothing twice or missing', async () => {
    const expense = `exp_${tag()}${tag()}${tag()}`;
    // Entries two to an instant, so some pairs at the same time straddle a batch edge: the ID tells them apart.
    await sql`INSERT INTO audit_log (public_id, action, entity_type, entity_public_id, created_at)
              SELECT 'aud_' || md5(${expense} || n), 'expense.update', 'expense', ${expense}, timestamp '2021-01-01' + (n / 2) * interval '1 second'
              FROM generate_series(1, 2500) AS n`.execute(t.db);
    const response = await t.superAdmin.get(`${AUDIT}?entity_public_id=${expense}&format=csv`);
    assert.equal(response.status, 200);
    const ids = response.text
      .split('\r\n')
      .slice(1, -1)
      .map((row) => row.split(',')[0]);
    const expected = await t.db
      .selectFrom('audit_log')
      .select('public_id')
      .where('entity_public_id', '=', expense)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    assert.equal(ids.length, 2500);
    assert.deepEqual(
      ids,
      expected.map((row) => row.public_id),
    );
  });

  test('each entry names its entity as a person would: an order number, an email, a SKU, a name', async () => {
    const admin = await signInAs(t, 'ADMIN');
    const category = ok(await admin.client.post(`${A}/categories`, { name: `Label ${tag()}` }), 201);
    const entries = (await list(t.superAdmin, `actor=${admin.user.public_id}`)).body.data as any[];
    const byAction = Object.fromEntries(entries.map((e) => [e.action, e.entity_label]));
    assert.equal(byAction['category.create'], category.name);
    assert.equal(byAction['auth.login'], admin.email);
  });
});
