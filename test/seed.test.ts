import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { syncCacheTargets } from '../src/http-cache/targets.js';
import { systemClock } from '../src/lib/clock.js';
import { useApp } from './helpers/use-app.js';

const run = promisify(execFile);

// The service on an address of its own; the seed is run as the README says, without it (its default is http://localhost:3000).
const SERVED = 'http://shop.example:3700';
const t = useApp({ env: { PUBLIC_BASE_URL: SERVED } });

/** `npm run seed` as a newcomer runs it: the compiled command, a real process on the configured database. */
async function seed() {
  const { stdout } = await run('npm', ['run', 'seed', '--silent'], {
    env: { ...process.env, DATABASE_URL: t.config.databaseUrl!, PASSWORD_HASH_COST: '10', LOG_LEVEL: 'warn', NODE_ENV: 'development' },
    timeout: 120_000,
  });
  return stdout;
}

describe('npm run seed', () => {
  test('a demo store with activity in every state, the demo admin signs in; a second run adds nothing', async () => {
    // A deployment's cache target, as its instances made it from CACHE_PURGE_URLS (which the seed's environment lacks).
    const purgeUrl = 'http://127.0.0.1:9/purge';
    await syncCacheTargets(t.db, systemClock, [purgeUrl]);
    const output = await seed();
    assert.match(output, /sign in as admin@demo\.store/);
    // Where to go, at the address the service last started with (not the seed's own default).
    assert.ok(output.includes(`the shop is at ${SERVED}/, the console at ${SERVED}/admin`), output);

    const states = await sql<{ status: string; n: number }>`SELECT status, count(*)::int AS n FROM orders GROUP BY status`.execute(t.db);
    const byStatus = Object.fromEntries(states.rows.map((row) => [row.status, row.n]));
    for (const status of ['PLACED', 'CONFIRMED', 'SHIPPED', 'FULFILLED', 'CANCELLED'])
      assert.ok((byStatus[status] ?? 0) > 0, `some ${status} orders: ${JSON.stringify(byStatus)}`);
    const spread = await sql<{ days: number }>`SELECT extract(day FROM max(placed_at) - min(placed_at))::int AS days FROM orders`.execute(
      t.db,
    );
    assert.ok(spread.rows[0]!.days >= 20, 'orders spread over weeks, for the dashboard chart');
    const pending = await sql<{ n: number }>`SELECT count(*)::int AS n FROM reviews WHERE status = 'PENDING'`.execute(t.db);
    assert.ok(pending.rows[0]!.n > 0, 'reviews wait for moderation');
    const expenses = await sql<{ n: number }>`SELECT count(*)::int AS n FROM expenses`.execute(t.db);
    assert.equal(expenses.rows[0]!.n, 9);
    // Stock stayed consistent: every open order's units are reserved.
    const drift = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM inventory i
      WHERE i.quantity_reserved <> coalesce((SELECT sum(oi.quantity) FROM order_items oi JOIN orders o ON o.id = oi.order_id
                                             WHERE oi.variant_id = i.variant_id AND o.status IN ('PLACED', 'CONFIRMED')), 0)`.execute(t.db);
    assert.equal(drift.rows[0]!.n, 0);
    // Every product has a picture; where a product comes in several colours, each variant has its colour's.
    const bare = await sql<{ n: number }>`SELECT count(*)::int AS n FROM products WHERE jsonb_array_length(images::jsonb) = 0`.execute(
      t.db,
    );
    assert.equal(bare.rows[0]!.n, 0);
    // The pictures are where the service serves them, not under the seed's own default address.
    const elsewhere = await sql<{ url: string }>`
      SELECT e ->> 'url' AS url FROM products, jsonb_array_elements(images) e
      WHERE NOT starts_with(e ->> 'url', ${`${SERVED}/media/ecommerce/products/`}) LIMIT 3`.execute(t.db);
    assert.deepEqual(elsewhere.rows, []);
    const colourless = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM variants v
      WHERE (SELECT count(DISTINCT w.options->>'colour') FROM variants w WHERE w.product_id = v.product_id) > 1
        AND NOT coalesce(v.images::jsonb -> 0 ->> 'alt_text' ILIKE '% in ' || (v.options->>'colour'), false)`.execute(t.db);
    assert.equal(colourless.rows[0]!.n, 0, "a variant without its colour's picture");

    // Every product's description is its own (a beanie is not described as a sun hat).
    const descriptions = await sql<{ n: number; distinct: number }>`
      SELECT count(*)::int AS n, count(DISTINCT description)::int AS distinct FROM products`.execute(t.db);
    assert.equal(descriptions.rows[0]!.distinct, descriptions.rows[0]!.n);
    // The customers were members before their first order, and the seed left no session behind.
    const early = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM users u WHERE u.created_at > (SELECT min(o.placed_at) FROM orders o WHERE o.user_id = u.id)`.execute(
      t.db,
    );
    assert.equal(early.rows[0]!.n, 0, 'no customer joined after their first order');
    const sessions = await sql<{ n: number }>`SELECT count(*)::int AS n FROM sessions WHERE revoked_at IS NULL`.execute(t.db);
    assert.equal(sessions.rows[0]!.n, 0, "the seed's own sessions are ended");

    const admin = t.client();
    const login = await admin.post('/api/v1/auth/login', { email: 'admin@demo.store', password: 'Demo-Pass-1' });
    assert.equal(login.status, 200, login.text);
    assert.equal(login.body.data.role, 'SUPER_ADMIN');
    const stats = await admin.get('/api/v1/admin/stats?period=30d');
    assert.ok(stats.body.data.orders.total > 0);

    // The seed is not an instance: it left the deployment's purges where they go.
    const targets = await sql<{ url: string }>`
      SELECT c.url FROM cache_targets c JOIN event_targets e ON e.id = c.target_id WHERE e.deleted_at IS NULL`.execute(t.db);
    assert.deepEqual(
      targets.rows.map((row) => row.url),
      [purgeUrl],
    );

    const before = await sql<{ n: number }>`SELECT count(*)::int AS n FROM orders`.execute(t.db);
    await seed();
    const again = await sql<{ n: number }>`SELECT count(*)::int AS n FROM orders`.execute(t.db);
    assert.equal(again.rows[0]!.n, before.rows[0]!.n, 'a second seed leaves the store as it is');
  });
});
