import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { API, byPublicId, createCategory, expectStatus, idsOf, makeProduct, uniqueSku, type VariantSpec } from './helpers/catalog.js';
import { errorOf } from './helpers/factories.js';
import { useApp } from './helpers/use-app.js';

/**
 * GET /products filters, sorts and paging. Each group of tests puts its
 * products in a category of its own and filters by it, so the expected
 * result is exact.
 */

const t = useApp({ as: ['ADMIN'] });

const list = (query: string) => t.anonymous.get(`${API}/products?${query}`);

async function expectIds(query: string, expected: string[]) {
  const response = await list(query);
  assert.equal(response.status, 200, `${query}: ${response.text}`);
  assert.deepEqual(idsOf(response), expected, query);
  assert.equal(response.body.meta.total, expected.length, query);
}

function expectBadQuery(response: { status: number; body: any; text: string }, field: string) {
  assert.equal(response.status, 400, response.text);
  const error = errorOf(response);
  assert.equal(error.code, 'VALIDATION_ERROR');
  assert.ok(error.details?.some((d) => d.field === field), response.text);
}

async function group(name: string) {
  return (await createCategory(t.admin, { name: `${name} ${uniqueSku()}` })).public_id as string;
}

describe('search', () => {
  let cat: string;
  const p: Record<string, string> = {};
  before(async () => {
    cat = await group('Search');
    const make = async (key: string, name: string, description: string, sku = uniqueSku(), status: 'ACTIVE' | 'INACTIVE' = 'ACTIVE') => {
      p[key] = (await makeProduct(t.admin, { name, description, categories: [cat], variants: [{ sku, status }] })).id;
    };
    await make('byName', 'Alpha Widget', 'plain');
    await make('byDescription', 'Gadget', 'a WIDGETRY marvel');
    await make('bySku', 'Gizmo', 'plain', `QX-WIDGET-${uniqueSku()}`);
    await make('percent', '100% Cotton', 'plain');
    await make('underscore', 'snake_case mug', 'plain');
    await make('control', 'Blue Cup', 'nothing here');
    await make('inactiveSku', 'Hidden Sku', 'plain', `QX-INACTIVE-${uniqueSku()}`, 'INACTIVE');
  });

  test('matches name, description or SKU, case-insensitively, as a substring', async () => {
    const widgets = [p.byName!, p.byDescription!, p.bySku!];
    await expectIds(`category=${cat}&sort=name&search=widget`, widgets);
    await expectIds(`category=${cat}&sort=name&search=WIDGET`, widgets);
    await expectIds(`category=${cat}&sort=name&search=wIdGeTrY`, [p.byDescription!]);
    await expectIds(`category=${cat}&sort=name&search=qx-widget`, [p.bySku!]);
    await expectIds(`category=${cat}&sort=name&search=${encodeURIComponent('ha Wid')}`, [p.byName!]);
    await expectIds(`category=${cat}&search=nomatch`, []);
  });

  test('% and _ in a search are literal characters, not wildcards', async () => {
    await expectIds(`category=${cat}&search=${encodeURIComponent('%')}`, [p.percent!]);
    await expectIds(`category=${cat}&search=${encodeURIComponent('0%')}`, [p.percent!]);
    await expectIds(`category=${cat}&search=${encodeURIComponent('100%25')}`, []);
    await expectIds(`category=${cat}&search=_`, [p.underscore!]);
    // Unescaped, "e_c" would also match "Blue Cup" ("e C").
    await expectIds(`category=${cat}&search=e_c`, [p.underscore!]);
    await expectIds(`category=${cat}&search=${encodeURIComponent('\\')}`, []);
  });

  test('the SKU of an inactive variant does not match publicly', async () => {
    await expectIds(`category=${cat}&search=qx-inactive`, []);
  });

  test('an empty or overlong search is 400', async () => {
    expectBadQuery(await list('search='), 'search');
    expectBadQuery(await list(`search=${'a'.repeat(201)}`), 'search');
  });
});

describe('category filter', () => {
  test('includes every subcategory depth; a product in two of them appears once', async () => {
    const parent = (await createCategory(t.admin, { name: `Parent ${uniqueSku()}` })).public_id;
    const child = (await createCategory(t.admin, { name: `Child ${uniqueSku()}`, parent_public_id: parent })).public_id;
    const grandchild = (await createCategory(t.admin, { name: `Grandchild ${uniqueSku()}`, parent_public_id: child })).public_id;
    const other = await group('Other');
    const inParent = (await makeProduct(t.admin, { name: 'C1 parent', categories: [parent] })).id;
    const inChild = (await makeProduct(t.admin, { name: 'C2 child', categories: [child] })).id;
    const inGrandchild = (await makeProduct(t.admin, { name: 'C3 grandchild', categories: [grandchild] })).id;
    const inTwo = (await makeProduct(t.admin, { name: 'C4 two', categories: [parent, grandchild] })).id;
    const inOther = (await makeProduct(t.admin, { name: 'C5 other', categories: [other] })).id;
    await makeProduct(t.admin, { name: 'C6 draft', status: 'DRAFT', categories: [grandchild] });

    await expectIds(`category=${parent}&sort=name`, [inParent, inChild, inGrandchild, inTwo]);
    await expectIds(`category=${child}&sort=name`, [inChild, inGrandchild, inTwo]);
    await expectIds(`category=${grandchild}&sort=name`, [inGrandchild, inTwo]);
    await expectIds(`category=${other}&sort=name`, [inOther]);
    await expectIds(`category=cat_00000000000000000000`, []);
    await expectIds(`category=not-an-id`, []);

    const viaCategory = await t.anonymous.get(`${API}/categories/${parent}/products?sort=name`);
    assert.deepEqual(idsOf(viaCategory), [inParent, inChild, inGrandchild, inTwo]);
    assert.equal(viaCategory.body.meta.total, 4);
  });
});

describe('price filter', () => {
  let cat: string;
  const p: Record<string, string> = {};
  before(async () => {
    cat = await group('Prices');
    p.one = (await makeProduct(t.admin, { name: 'P1', categories: [cat], variants: [{ price: '10.00' }, { price: '30.00' }] })).id;
    p.two = (await makeProduct(t.admin, { name: 'P2', categories: [cat], variants: [{ price: '20.00' }] })).id;
    p.three = (await makeProduct(t.admin, { name: 'P3', categories: [cat], variants: [{ price: '20.01', status: 'INACTIVE' }, { price: '5.00' }] })).id;
    const four = await makeProduct(t.admin, { name: 'P4', categories: [cat], variants: [{ price: '25.00' }, { price: '100.00' }] });
    p.four = four.id;
    expectStatus(await t.admin.delete(`${API}/admin/variants/${four.variants[0].public_id}`), 204);
  });

  test('a product matches when one of its active variants is in range; bounds are inclusive', async () => {
    const q = (range: string) => `category=${cat}&sort=name&${range}`;
    await expectIds(q('min_price=20&max_price=20'), [p.two!]);
    await expectIds(q('min_price=20.00&max_price=20.00'), [p.two!]);
    await expectIds(q('min_price=30'), [p.one!, p.four!]);
    await expectIds(q('max_price=10'), [p.one!, p.three!]);
    await expectIds(q('min_price=10&max_price=10'), [p.one!]);
    await expectIds(q('min_price=5&max_price=5.00'), [p.three!]);
    // P3's 20.01 is inactive; P4's 25.00 is deleted.
    await expectIds(q('min_price=20.01'), [p.one!, p.four!]);
    await expectIds(q('min_price=21&max_price=29.99'), []);
    await expectIds(q('min_price=0&max_price=1000'), [p.one!, p.two!, p.three!, p.four!]);
    await expectIds(q('min_price=11&max_price=19'), []);
  });

  test('malformed prices are 400', async () => {
    for (const [name, value] of [['min_price', 'abc'], ['min_price', '-1'], ['max_price', '1.234'], ['max_price', '1e2']]) {
      expectBadQuery(await list(`${name}=${value}`), name!);
    }
  });
});

describe('in_stock filter', () => {
  test('in_stock=true keeps products with an active, live variant whose on_hand - reserved > 0', async () => {
    const cat = await group('Stock');
    const make = (name: string, variants: VariantSpec[]) => makeProduct(t.admin, { name, categories: [cat], variants });
    const reserved = await make('S1 all reserved', [{ stock: 5 }]);
    expectStatus(await t.admin.patch(`${API}/admin/inventory/${reserved.variants[0].public_id}/reservation`, { change: 5 }), 200);
    const partly = await make('S2 partly reserved', [{ stock: 3 }]);
    expectStatus(await t.admin.patch(`${API}/admin/inventory/${partly.variants[0].public_id}/reservation`, { change: 2 }), 200);
    const noRecord = await make('S3 no record', [{}]);
    const inactive = await make('S4 inactive', [{ stock: 10, status: 'INACTIVE' }]);
    const zero = await make('S5 zero', [{ stock: 0 }]);
    const deleted = await make('S6 deleted in stock', [{ stock: 10 }, {}]);
    expectStatus(await t.admin.delete(`${API}/admin/variants/${deleted.variants[0].public_id}`), 204);
    const mixed = await make('S7 one of two', [{ stock: 0 }, { stock: 1 }]);

    await expectIds(`category=${cat}&sort=name&in_stock=true`, [partly.id, mixed.id]);
    const all = [reserved, partly, noRecord, inactive, zero, deleted, mixed].map((p) => p.id);
    await expectIds(`category=${cat}&sort=name`, all);
    await expectIds(`category=${cat}&sort=name&in_stock=false`, all);
    expectBadQuery(await list('in_stock=yes'), 'in_stock');

    const flags = (await list(`category=${cat}&sort=name`)).body.data.map((p: any) => p.variants.map((v: any) => v.in_stock));
    assert.deepEqual(flags, [[false], [true], [false], [], [false], [false], [false, true]]);
  });
});

describe('sorting', () => {
  let cat: string;
  const p = {} as Record<'a' | 'b' | 'c' | 'd' | 'e', string>;
  /** Two public IDs in the order the tiebreak puts them for a direction. */
  const tie = (a: string, b: string, direction: 'asc' | 'desc') => {
    const pair = [a, b].sort(byPublicId);
    return direction === 'asc' ? pair : pair.reverse();
  };

  before(async () => {
    cat = await group('Sorting');
    const rows: ['a' | 'b' | 'c' | 'd' | 'e', string, string | null, string, string][] = [
      // key, name, price, rating, created_at
      ['a', 'Apple', '30.00', '4.50', '2024-01-03T00:00:00Z'],
      ['b', 'Banana', '10.00', '3.00', '2024-01-01T00:00:00Z'],
      ['c', 'Apple', '10.00', '4.50', '2024-01-03T00:00:00Z'],
      ['d', 'Cherry', '20.00', '0.00', '2024-01-02T00:00:00Z'],
      ['e', 'Date', null, '1.00', '2024-01-01T00:00:00Z'],
    ];
    for (const [key, name, price, rating, createdAt] of rows) {
      const variants = price === null ? [{ price: '99.00', status: 'INACTIVE' as const }] : [{ price }];
      const { id } = await makeProduct(t.admin, { name, categories: [cat], variants });
      await sql`UPDATE products SET rating_average = ${rating}, created_at = ${createdAt} WHERE public_id = ${id}`.execute(t.db);
      p[key] = id;
    }
  });

  test('name, both directions, ties by public ID', async () => {
    const { a, b, c, d, e } = p;
    await expectIds(`category=${cat}&sort=name`, [...tie(a, c, 'asc'), b, d, e]);
    await expectIds(`category=${cat}&sort=-name`, [e, d, b, ...tie(a, c, 'desc')]);
  });

  test('price (lowest active price), both directions, ties by public ID, no price last', async () => {
    const { a, b, c, d, e } = p;
    await expectIds(`category=${cat}&sort=price`, [...tie(b, c, 'asc'), d, a, e]);
    await expectIds(`category=${cat}&sort=-price`, [a, d, ...tie(b, c, 'desc'), e]);
  });

  test('created_at, both directions, ties by public ID; the default is newest first', async () => {
    const { a, b, c, d, e } = p;
    await expectIds(`category=${cat}&sort=created_at`, [...tie(b, e, 'asc'), d, ...tie(a, c, 'asc')]);
    await expectIds(`category=${cat}&sort=-created_at`, [...tie(a, c, 'desc'), d, ...tie(b, e, 'desc')]);
    await expectIds(`category=${cat}`, [...tie(a, c, 'desc'), d, ...tie(b, e, 'desc')]);
  });

  test('rating, both directions, ties by public ID', async () => {
    const { a, b, c, d, e } = p;
    await expectIds(`category=${cat}&sort=rating`, [d, e, b, ...tie(a, c, 'asc')]);
    await expectIds(`category=${cat}&sort=-rating`, [...tie(a, c, 'desc'), b, e, d]);
    const ratings = (await list(`category=${cat}&sort=-rating`)).body.data.map((x: any) => x.rating.average);
    assert.deepEqual(ratings, [4.5, 4.5, 3, 1, 0]);
  });

  test('paging through a sort with ties neither repeats nor skips', async () => {
    for (const sort of ['name', '-name', 'price', '-price', 'created_at', '-created_at', 'rating', '-rating']) {
      const whole = idsOf(await list(`category=${cat}&sort=${sort}`));
      const paged: string[] = [];
      for (let page = 1; page <= 3; page++) paged.push(...idsOf(await list(`category=${cat}&sort=${sort}&limit=2&page=${page}`)));
      assert.deepEqual(paged, whole, sort);
    }
  });

  test('an unknown sort value is 400', async () => {
    for (const sort of ['popularity', '-popularity', 'Name', '--name', 'public_id', '+name', '']) {
      expectBadQuery(await list(`sort=${encodeURIComponent(sort)}`), 'sort');
    }
  });
});

describe('paging', () => {
  let cat: string;
  let ids: string[];
  before(async () => {
    cat = await group('Paging');
    ids = [];
    for (let i = 1; i <= 5; i++) ids.push((await makeProduct(t.admin, { name: `Item ${i}`, categories: [cat] })).id);
  });

  test('meta is exact on every page, and a page past the end is empty with accurate meta', async () => {
    const page = (n: number) => list(`category=${cat}&sort=name&limit=2&page=${n}`);
    const expected = [
      { ids: ids.slice(0, 2), meta: { page: 1, limit: 2, total: 5, totalPages: 3, hasNext: true, hasPrev: false } },
      { ids: ids.slice(2, 4), meta: { page: 2, limit: 2, total: 5, totalPages: 3, hasNext: true, hasPrev: true } },
      { ids: ids.slice(4), meta: { page: 3, limit: 2, total: 5, totalPages: 3, hasNext: false, hasPrev: true } },
      { ids: [], meta: { page: 4, limit: 2, total: 5, totalPages: 3, hasNext: false, hasPrev: true } },
      { ids: [], meta: { page: 50, limit: 2, total: 5, totalPages: 3, hasNext: false, hasPrev: true } },
    ];
    for (const [index, want] of expected.entries()) {
      const response = await page(index === 4 ? 50 : index + 1);
      assert.equal(response.status, 200);
      assert.equal(response.body.success, true);
      assert.deepEqual(idsOf(response), want.ids);
      assert.deepEqual(response.body.meta, want.meta);
    }
  });

  test('defaults are page 1, limit 20; an empty result has zero pages', async () => {
    assert.deepEqual((await list(`category=${cat}`)).body.meta, { page: 1, limit: 20, total: 5, totalPages: 1, hasNext: false, hasPrev: false });
    assert.deepEqual((await list(`category=${cat}&limit=5`)).body.meta, { page: 1, limit: 5, total: 5, totalPages: 1, hasNext: false, hasPrev: false });
    assert.deepEqual((await list(`category=${cat}&search=zzz-none`)).body, {
      success: true,
      data: [],
      meta: { page: 1, limit: 20, total: 0, totalPages: 0, hasNext: false, hasPrev: false },
    });
    assert.deepEqual((await list(`category=${cat}&search=zzz-none&page=3`)).body.meta, { page: 3, limit: 20, total: 0, totalPages: 0, hasNext: false, hasPrev: true });
  });

  test('the category products endpoint pages the same way', async () => {
    const response = await t.anonymous.get(`${API}/categories/${cat}/products?sort=-name&limit=2&page=3`);
    assert.deepEqual(idsOf(response), [ids[0]]);
    assert.deepEqual(response.body.meta, { page: 3, limit: 2, total: 5, totalPages: 3, hasNext: false, hasPrev: true });
    const past = await t.anonymous.get(`${API}/categories/${cat}/products?page=9&limit=2`);
    assert.deepEqual(past.body.data, []);
    assert.deepEqual(past.body.meta, { page: 9, limit: 2, total: 5, totalPages: 3, hasNext: false, hasPrev: true });
  });

  test('limit outside 1..100, page below 1 and non-integers are 400', async () => {
    for (const [query, field] of [
      ['limit=101', 'limit'],
      ['limit=0', 'limit'],
      ['limit=-1', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=1.5', 'limit'],
      ['page=0', 'page'],
      ['page=-2', 'page'],
      ['page=x', 'page'],
    ]) {
      expectBadQuery(await list(query!), field!);
      expectBadQuery(await t.anonymous.get(`${API}/categories/${cat}/products?${query}`), field!);
    }
    assert.equal((await list('limit=100')).status, 200);
  });
});
