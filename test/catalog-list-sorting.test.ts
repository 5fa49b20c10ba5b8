import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { API, byPublicId, expectListed, expectValidation, idsOf, listProducts, makeProduct, productGroup } from './helpers/catalog.js';
import { useApp } from './helpers/use-app.js';

/**
 * GET /products sorting and paging. Each group of tests puts its products in
 * a category of its own and filters by it, so the expected result is exact.
 */

const t = useApp({ as: ['ADMIN'] });

describe('sorting', () => {
  let cat: string;
  const p = {} as Record<'a' | 'b' | 'c' | 'd' | 'e', string>;
  /** Two public IDs in the order the tiebreak puts them for a direction. */
  const tie = (a: string, b: string, direction: 'asc' | 'desc') => {
    const pair = [a, b].sort(byPublicId);
    return direction === 'asc' ? pair : pair.reverse();
  };

  before(async () => {
    cat = await productGroup(t.admin, 'Sorting');
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
    await expectListed(t.anonymous, `category=${cat}&sort=name`, [...tie(a, c, 'asc'), b, d, e]);
    await expectListed(t.anonymous, `category=${cat}&sort=-name`, [e, d, b, ...tie(a, c, 'desc')]);
  });

  test('price (lowest active price), both directions, ties by public ID, no price last', async () => {
    const { a, b, c, d, e } = p;
    await expectListed(t.anonymous, `category=${cat}&sort=price`, [...tie(b, c, 'asc'), d, a, e]);
    await expectListed(t.anonymous, `category=${cat}&sort=-price`, [a, d, ...tie(b, c, 'desc'), e]);
  });

  test('created_at, both directions, ties by public ID; the default is newest first', async () => {
    const { a, b, c, d, e } = p;
    await expectListed(t.anonymous, `category=${cat}&sort=created_at`, [...tie(b, e, 'asc'), d, ...tie(a, c, 'asc')]);
    await expectListed(t.anonymous, `category=${cat}&sort=-created_at`, [...tie(a, c, 'desc'), d, ...tie(b, e, 'desc')]);
    await expectListed(t.anonymous, `category=${cat}`, [...tie(a, c, 'desc'), d, ...tie(b, e, 'desc')]);
  });

  test('rating, both directions, ties by public ID', async () => {
    const { a, b, c, d, e } = p;
    await expectListed(t.anonymous, `category=${cat}&sort=rating`, [d, e, b, ...tie(a, c, 'asc')]);
    await expectListed(t.anonymous, `category=${cat}&sort=-rating`, [...tie(a, c, 'desc'), b, e, d]);
    const ratings = (await listProducts(t.anonymous, `category=${cat}&sort=-rating`)).body.data.map((x: any) => x.rating.average);
    assert.deepEqual(ratings, [4.5, 4.5, 3, 1, 0]);
  });

  test('paging through a sort with ties neither repeats nor skips', async () => {
    for (const sort of ['name', '-name', 'price', '-price', 'created_at', '-created_at', 'rating', '-rating']) {
      const whole = idsOf(await listProducts(t.anonymous, `category=${cat}&sort=${sort}`));
      const paged: string[] = [];
      for (let page = 1; page <= 3; page++)
        paged.push(...idsOf(await listProducts(t.anonymous, `category=${cat}&sort=${sort}&limit=2&page=${page}`)));
      assert.deepEqual(paged, whole, sort);
    }
  });

  test('an unknown sort value is 400', async () => {
    for (const sort of ['popularity', '-popularity', 'Name', '--name', 'public_id', '+name', '']) {
      expectValidation(await listProducts(t.anonymous, `sort=${encodeURIComponent(sort)}`), 'sort');
    }
  });
});

describe('paging', () => {
  let cat: string;
  let ids: string[];
  before(async () => {
    cat = await productGroup(t.admin, 'Paging');
    ids = [];
    for (let i = 1; i <= 5; i++) ids.push((await makeProduct(t.admin, { name: `Item ${i}`, categories: [cat] })).id);
  });

  test('meta is exact on every page, and a page past the end is empty with accurate meta', async () => {
    const page = (n: number) => listProducts(t.anonymous, `category=${cat}&sort=name&limit=2&page=${n}`);
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
    assert.deepEqual((await listProducts(t.anonymous, `category=${cat}`)).body.meta, {
      page: 1,
      limit: 20,
      total: 5,
      totalPages: 1,
      hasNext: false,
      hasPrev: false,
    });
    assert.deepEqual((await listProducts(t.anonymous, `category=${cat}&limit=5`)).body.meta, {
      page: 1,
      limit: 5,
      total: 5,
      totalPages: 1,
      hasNext: false,
      hasPrev: false,
    });
    assert.deepEqual((await listProducts(t.anonymous, `category=${cat}&search=zzz-none`)).body, {
      success: true,
      data: [],
      meta: { page: 1, limit: 20, total: 0, totalPages: 0, hasNext: false, hasPrev: false },
    });
    assert.deepEqual((await listProducts(t.anonymous, `category=${cat}&search=zzz-none&page=3`)).body.meta, {
      page: 3,
      limit: 20,
      total: 0,
      totalPages: 0,
      hasNext: false,
      hasPrev: true,
    });
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
      expectValidation(await listProducts(t.anonymous, query!), field!);
      expectValidation(await t.anonymous.get(`${API}/categories/${cat}/products?${query}`), field!);
    }
    assert.equal((await listProducts(t.anonymous, 'limit=100')).status, 200);
  });
});
