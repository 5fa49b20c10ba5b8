import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { seedBenchStore } from '../bench/seed.js';
import { hashPassword } from '../src/lib/password.js';
import type { Client } from './helpers/client.js';
import { useApp } from './helpers/use-app.js';

/**
 * Every list endpoint's SQL, run under EXPLAIN on a seeded store, must reach
 * the big tables through indexes: a sequential scan here is a regression that
 * would show in production only once the store is large.
 */
const BIG_TABLES = new Set([
  'products',
  'variants',
  'inventory',
  'orders',
  'order_items',
  'users',
  'addresses',
  'audit_log',
  'product_categories',
]);

let customer: Client;
let sample: { category: string; product: string };

const t = useApp({
  // An idle email worker: its polling must not mix into the statements under test.
  env: { EMAIL_POLL_INTERVAL_MS: '600000' },
  as: ['SUPER_ADMIN'],
  async seed(t) {
    const password = 'Bench-Pass-1';
    await seedBenchStore(t.db, await hashPassword(password, t.config.passwordHashCost), {
      categories: 200,
      products: 10_000,
      variantsPerProduct: 4,
      customers: 3_000,
      orders: 10_000,
    });
    // The audit log only grows in production; give it a production-like size here.
    await sql`
      INSERT INTO audit_log (public_id, action, entity_type, entity_public_id, created_at)
      SELECT 'aud_' || substr(md5(g::text), 1, 20), (ARRAY['inventory.adjust','product.update','auth.login'])[1 + g % 3], 'inventory', 'var_' || substr(md5(g::text), 1, 20),
             now() - (g || ' minutes')::interval
      FROM generate_series(1, 20000) g`.execute(t.db);
    await sql`VACUUM ANALYZE`.execute(t.db);
    customer = t.client();
    assert.equal((await customer.post('/api/v1/auth/login', { email: 'customer7@bench.test', password })).status, 200);
    const row = await sql<{ category: string; product: string }>`
      SELECT c.public_id AS category, p.public_id AS product FROM products p
      JOIN product_categories pc ON pc.product_id = p.id JOIN categories c ON c.id = pc.category_id
      WHERE p.status = 'ACTIVE' ORDER BY p.id LIMIT 1`.execute(t.db);
    sample = row.rows[0]!;
  },
});

/**
 * Known, deliberate exceptions: [path, table, why]. The total of in-stock
 * products must look at every in-stock variant whatever the access path, so
 * the planner rightly reads inventory sequentially for that count (the page
 * itself uses indexes). Removing it needs a per-product in-stock counter.
 */
const ALLOWED: [string, string][] = [
  ['/api/v1/products?in_stock=true', 'inventory'],
  ['/api/v1/products?in_stock=true', 'variants'],
];

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

function seqScans(node: PlanNode): string[] {
  const own =
    node['Node Type'] === 'Seq Scan' && node['Relation Name'] && BIG_TABLES.has(node['Relation Name']) ? [node['Relation Name']] : [];
  return [...own, ...(node.Plans ?? []).flatMap(seqScans)];
}

async function plansOf(client: Client, path: string) {
  t.statements.length = 0;
  const response = await client.get(path);
  assert.equal(response.status, 200, `${path}: ${response.text.slice(0, 300)}`);
  const reads = t.statements.filter((s) => /^\s*(select|with)\b/i.test(s.sql));
  const findings: { sql: string; scans: string[] }[] = [];
  for (const statement of reads) {
    const explained = await t.db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${statement.sql}`, [...statement.parameters]),
    );
    const scans = seqScans(explained.rows[0]!['QUERY PLAN'][0].Plan).filter(
      (table) => !ALLOWED.some(([p, t]) => p === path && t === table),
    );
    if (scans.length > 0) findings.push({ sql: statement.sql, scans });
  }
  return findings;
}

const storefront = () => [
  '/api/v1/products',
  '/api/v1/products?page=300',
  '/api/v1/products?search=summit',
  `/api/v1/products?category=${sample.category}&min_price=50&max_price=300`,
  '/api/v1/products?sort=price',
  '/api/v1/products?sort=-price',
  '/api/v1/products?sort=name',
  '/api/v1/products?sort=-rating',
  '/api/v1/products?in_stock=true',
  `/api/v1/products/${sample.product}`,
  `/api/v1/categories/${sample.category}/products`,
];
const adminLists = [
  '/api/v1/admin/inventory',
  '/api/v1/admin/inventory?search=summit',
  '/api/v1/admin/inventory?stock_status=LOW_STOCK',
  '/api/v1/admin/inventory?stock_status=OUT_OF_STOCK',
  ...[
    'sku',
    '-sku',
    'quantity_on_hand',
    '-quantity_on_hand',
    'quantity_available',
    '-quantity_available',
    'last_stock_update',
    '-last_stock_update',
    '-product_name',
  ].map((sort) => `/api/v1/admin/inventory?sort=${sort}`),
  '/api/v1/admin/orders',
  '/api/v1/admin/orders?status=SHIPPED',
  '/api/v1/admin/orders?search=ORD-0001',
  '/api/v1/admin/users?search=number%2012',
  '/api/v1/admin/audit',
];

/**
 * The plans these expect are PostgreSQL 18's (the embedded server, and the one recommended): older
 * planners choose others for a few admin lists (README, `DATABASE_URL`), and bench/NOTES.md measures
 * the lists on 18. On an older server those tests say so and are skipped, never passed.
 */
async function olderPlanner(context: TestContext): Promise<boolean> {
  const { rows } = await sql<{ version: number }>`SELECT current_setting('server_version_num')::int AS version`.execute(t.db);
  const version = rows[0]!.version;
  if (version >= 180000) return false;
  context.skip(`PostgreSQL ${Math.floor(version / 10000)}'s planner chooses other plans for these lists; the ones asserted are 18's`);
  return true;
}

describe('list endpoints use indexes on a large store', () => {
  test('storefront lists and product pages', async () => {
    const findings = [];
    for (const path of storefront()) findings.push(...(await plansOf(customer, path)).map((f) => ({ path, ...f })));
    assert.deepEqual(findings, []);
  });

  test('customer lists', async () => {
    const findings = [];
    for (const path of ['/api/v1/users/me/addresses', '/api/v1/orders'])
      findings.push(...(await plansOf(customer, path)).map((f) => ({ path, ...f })));
    assert.deepEqual(findings, []);
  });

  test('admin lists', async (context) => {
    if (await olderPlanner(context)) return;
    const findings = [];
    for (const path of adminLists) findings.push(...(await plansOf(t.superAdmin, path)).map((f) => ({ path, ...f })));
    assert.deepEqual(findings, []);
  });
});

/**
 * Statements are prepared once per connection (src/db/database.ts); a list's
 * statement must then settle on a cached plan. When it cannot (a parameter
 * hiding a partial index, LIMIT and OFFSET as parameters), PostgreSQL plans
 * it afresh on every call, which cost as much as running it (bench/NOTES.md,
 * findings 16, 19, 21).
 */
describe('list statements run on cached plans', () => {
  async function replanned(client: Client, paths: string[]) {
    const texts = new Map<string, readonly unknown[]>();
    for (const path of paths) {
      t.statements.length = 0;
      assert.equal((await client.get(path)).status, 200, path);
      for (const s of t.statements) if (/^\s*(select|with)\b/i.test(s.sql)) texts.set(s.sql, s.parameters);
    }
    return t.db.connection().execute(async (connection) => {
      for (const [text, parameters] of texts) {
        for (let i = 0; i < 7; i++) await connection.executeQuery(CompiledQuery.raw(text, [...parameters]));
      }
      const prepared = await connection.executeQuery<{ statement: string; generic_plans: number }>(
        CompiledQuery.raw('SELECT statement, generic_plans::int AS generic_plans FROM pg_prepared_statements'),
      );
      const cached = new Set(prepared.rows.filter((r) => r.generic_plans > 0).map((r) => r.statement));
      return [...texts.keys()]
        .filter((text) => !cached.has(text))
        .map((text) => text.replace(/^select .*? from /s, '... from ').slice(0, 300));
    });
  }

  test('storefront lists and product pages', async () => {
    assert.deepEqual(await replanned(customer, storefront()), []);
  });

  test('admin inventory lists', async (context) => {
    if (await olderPlanner(context)) return;
    assert.deepEqual(
      await replanned(
        t.superAdmin,
        adminLists.filter((path) => path.includes('/inventory')),
      ),
      [],
    );
  });
});
