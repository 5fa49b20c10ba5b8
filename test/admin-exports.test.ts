import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { API, makeProduct, uniqueSku } from './helpers/catalog.js';
import { checkout, sellableVariant, shopper } from './helpers/commerce.js';
import { errorOf } from './helpers/factories.js';
import { useApp } from './helpers/use-app.js';

/** Streamed CSV exports of products (in the import's format), orders and accounts. */

const t = useApp({ env: { RATE_LIMIT_REGISTER: '0' }, as: ['CUSTOMER', 'ADMIN'] });

async function exported(path: string) {
  const response = await t.admin.get(`${API}/admin/exports/${path}`);
  assert.equal(response.status, 200, response.text);
  assert.match(response.headers.get('content-type') ?? '', /^text\/csv/);
  const rows = parse(response.text, { columns: true }) as Record<string, string>[];
  assert.equal(Number(response.headers.get('x-total-rows')), rows.length, 'X-Total-Rows counts the rows that follow');
  return rows;
}

test('products: a row per variant in the import format, which imports back without a change', async () => {
  const sku = uniqueSku('EXP');
  const made = await makeProduct(t.admin, {
    name: 'Oak; Table "Large"',
    variants: [
      { sku: `${sku}-A`, price: '120.00', cost_price: '50.00', options: { size: 'L', 'finish=oil': 'a;b' }, stock: 3 },
      { sku: `${sku}-B`, price: '99.90', options: { size: 'M' } },
    ],
  });
  const empty = await makeProduct(t.admin, { variants: [] });
  const rows = (await exported('products')).filter((r) => r.product_slug === made.product.slug || r.product_slug === empty.product.slug);
  assert.deepEqual(
    rows.map((r) => [r.sku, r.options, r.price, r.cost_price, r.quantity_on_hand]),
    [
      [`${sku}-A`, 'size=L; finish\\=oil=a\\;b', '120.00', '50.00', '3'],
      [`${sku}-B`, 'size=M', '99.90', '', ''],
      ['', '', '', '', ''],
    ],
  );
  const file = [
    'product_slug,product_name,sku,options,price,cost_price,quantity_on_hand',
    ...rows
      .slice(0, 2)
      .map((r) =>
        [r.product_slug, `"${r.product_name!.replaceAll('"', '""')}"`, r.sku, r.options, r.price, r.cost_price, r.quantity_on_hand].join(
          ',',
        ),
      ),
  ].join('\r\n');
  const back = await t.admin.post(`${API}/admin/imports/products?mode=all_or_nothing`, undefined, {
    raw: file,
    headers: { 'content-type': 'text/csv' },
  });
  assert.equal(back.status, 200, back.text);
  assert.deepEqual(
    [back.body.data.refused, back.body.data.updated, back.body.data.created.variants],
    [[], { products: 0, variants: 0, stock_records: 0 }, 0],
  );
  assert.equal(
    (await exported('products?status=ARCHIVED')).some((r) => r.product_slug === made.product.slug),
    false,
  );
});

test('orders and accounts: every order with its customer and totals; every account with its orders and spend', async () => {
  const { variantId } = await sellableVariant(t.admin, { price: '25.00' });
  const buyer = await shopper(t, [{ variantId, quantity: 2 }]);
  const order = (await checkout(buyer.client, buyer.addressId)).body.data;
  const row = (await exported('orders')).find((r) => r.public_id === order.public_id)!;
  assert.deepEqual(
    [row.order_number, row.customer_email, row.items, row.subtotal, row.total, row.status],
    [order.order_number, buyer.email, '2', '50.00', order.total, 'PLACED'],
  );
  assert.equal(
    (await exported('orders?status=CANCELLED')).some((r) => r.public_id === order.public_id),
    false,
  );
  const account = (await exported('accounts?role=CUSTOMER')).find((r) => r.email === buyer.email)!;
  assert.deepEqual([account.order_count, account.lifetime_spend, account.role], ['1', order.total, 'CUSTOMER']);
});

test('an export longer than one batch comes whole, in order, each account once', async () => {
  await sql`INSERT INTO users (public_id, email, password_hash, first_name, last_name, role)
            SELECT 'usr_bulk' || lpad(n::text, 12, '0'), 'bulk-' || n || '@example.test', 'x', 'Bulk', 'Person', 'CUSTOMER'
            FROM generate_series(1, 1200) AS n`.execute(t.db);
  // STAFF, as the account list takes it: both staff roles, no customer.
  const staff = await exported('accounts?role=STAFF');
  assert.ok(
    staff.length > 0 && staff.every((r) => r.role === 'ADMIN' || r.role === 'SUPER_ADMIN'),
    JSON.stringify(staff.map((r) => r.role)),
  );
  const emails = (await exported('accounts?role=CUSTOMER')).map((r) => r.email).filter((email) => email!.startsWith('bulk-'));
  assert.equal(emails.length, 1200);
  assert.equal(new Set(emails).size, 1200);
  assert.deepEqual(emails.slice(0, 3), ['bulk-1@example.test', 'bulk-2@example.test', 'bulk-3@example.test']);
});

test('staff only', async () => {
  for (const path of ['products', 'orders', 'accounts']) {
    assert.equal(errorOf(await t.customer.get(`${API}/admin/exports/${path}`)).code, 'FORBIDDEN');
  }
  assert.equal(errorOf(await t.admin.get(`${API}/admin/exports/orders?status=LOST`)).code, 'VALIDATION_ERROR');
});

test('every export is audited: who took it, which export, its filters and how many rows', async () => {
  const taken = async (path: string) => {
    const response = await t.admin.get(`${API}/admin/exports/${path}`);
    assert.equal(response.status, 200, response.text);
    return Number(response.headers.get('x-total-rows'));
  };
  const rows = {
    accounts: await taken('accounts?role=CUSTOMER'),
    orders: await taken('orders?status=PLACED'),
    products: await taken('products'),
  };
  const entries = await t.db
    .selectFrom('audit_log')
    .select(['actor_public_id', 'entity_type', 'changes'])
    .where('action', '=', 'data.export')
    .orderBy('id', 'desc')
    .limit(3)
    .execute();
  const byExport = new Map(entries.map((entry) => [(entry.changes as any).after.export as string, entry]));
  for (const [what, filters] of [
    ['accounts', { role: 'CUSTOMER' }],
    ['orders', { status: 'PLACED' }],
    ['products', {}],
  ] as const) {
    const entry = byExport.get(what);
    assert.ok(entry, `${what} audited`);
    assert.equal(entry.actor_public_id, t.admin.user.public_id);
    assert.equal(entry.entity_type, 'export');
    assert.deepEqual((entry.changes as any).after, { export: what, filters, rows: rows[what] });
  }
});
