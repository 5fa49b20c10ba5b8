import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import {
  API,
  createCategory,
  expectListed,
  expectStatus,
  expectValidation,
  idsOf,
  listProducts,
  makeProduct,
  productGroup,
  uniqueSku,
  type VariantSpec,
} from './helpers/catalog.js';
import { useApp } from './helpers/use-app.js';

/**
 * GET /products filters: search, category, price and in_stock. Each group of
 * tests puts its products in a category of its own and filters by it, so the
 * expected result is exact.
 */

const t = useApp({ as: ['ADMIN'] });

describe('search', () => {
  let cat: string;
  const p: Record<string, string> = {};
  before(async () => {
    cat = await productGroup(t.admin, 'Search');
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
    await make('boot', 'Waterproof Trail Boot', 'plain');
    await make('hoodie', 'Zip Hoodie', 'plain');
    await make('dress', 'Linen Dress', 'plain');
    await make('pouch', 'Canvas Pouch', 'an accessory for every bag');
    await make('tee', 'Cotton Tee', 'plain');
    p.byBrand = (await makeProduct(t.admin, { name: 'Trinket', description: 'plain', brand: 'Widgetworks', categories: [cat] })).id;
  });

  test('every word is looked for on its own, in any order, and a plural finds its singular', async () => {
    const search = (words: string) => `category=${cat}&sort=name&search=${encodeURIComponent(words)}`;
    await expectListed(t.anonymous, search('boots'), [p.boot!]);
    await expectListed(t.anonymous, search('BOOTS'), [p.boot!]);
    await expectListed(t.anonymous, search('hoodies'), [p.hoodie!]);
    await expectListed(t.anonymous, search('dresses'), [p.dress!]);
    await expectListed(t.anonymous, search('accessories'), [p.pouch!]);
    await expectListed(t.anonymous, search('tees'), [p.tee!]);
    await expectListed(t.anonymous, search('boot waterproof'), [p.boot!]);
    await expectListed(t.anonymous, search('  trail   boots  '), [p.boot!]);
    await expectListed(t.anonymous, search('waterproof hoodie'), []); // each word must match
  });

  test('matches name, brand, description or SKU, case-insensitively, as a substring', async () => {
    const widgets = [p.byName!, p.byDescription!, p.bySku!, p.byBrand!];
    await expectListed(t.anonymous, `category=${cat}&sort=name&search=widget`, widgets);
    await expectListed(t.anonymous, `category=${cat}&sort=name&search=WIDGET`, widgets);
    await expectListed(t.anonymous, `category=${cat}&sort=name&search=wIdGeTrY`, [p.byDescription!]);
    await expectListed(t.anonymous, `category=${cat}&sort=name&search=qx-widget`, [p.bySku!]);
    await expectListed(t.anonymous, `category=${cat}&sort=name&search=${encodeURIComponent('ha Wid')}`, [p.byName!]);
    await expectListed(t.anonymous, `category=${cat}&search=nomatch`, []);
    // A brand's name and a word of the product's together.
    await expectListed(t.anonymous, `category=${cat}&search=${encodeURIComponent('widgetworks trinket')}`, [p.byBrand!]);
  });

  test('% and _ in a search are literal characters, not wildcards', async () => {
    await expectListed(t.anonymous, `category=${cat}&search=${encodeURIComponent('%')}`, [p.percent!]);
    await expectListed(t.anonymous, `category=${cat}&search=${encodeURIComponent('0%')}`, [p.percent!]);
    await expectListed(t.anonymous, `category=${cat}&search=${encodeURIComponent('100%25')}`, []);
    await expectListed(t.anonymous, `category=${cat}&search=_`, [p.underscore!]);
    // Unescaped, "e_c" would also match "Blue Cup" ("e C").
    await expectListed(t.anonymous, `category=${cat}&search=e_c`, [p.underscore!]);
    await expectListed(t.anonymous, `category=${cat}&search=${encodeURIComponent('\\')}`, []);
  });

  test('the SKU of an inactive variant does not match publicly', async () => {
    await expectListed(t.anonymous, `category=${cat}&search=qx-inactive`, []);
  });

  test('an empty or overlong search is 400', async () => {
    expectValidation(await listProducts(t.anonymous, 'search='), 'search');
    expectValidation(await listProducts(t.anonymous, `search=${'a'.repeat(201)}`), 'search');
  });

  test('relevance: the products whose names hold the words come before those that only mention them; refused where nothing ranks', async () => {
    const group = await productGroup(t.admin, 'Relevance');
    // Made oldest first, so the newest-first default puts the weakest match on top.
    const make = async (name: string, description: string) =>
      (await makeProduct(t.admin, { name, description, categories: [group], variants: [{ sku: uniqueSku() }] })).id;
    const exact = await make('Linen Shirt', 'breezy');
    const partial = await make('Shirt of Flax', 'linen at last');
    const described = await make('Summer Top', 'a linen shirt look');
    const search = (sort: string) => `category=${group}&search=${encodeURIComponent('linen shirt')}&sort=${sort}`;
    await expectListed(t.anonymous, search('-created_at'), [described, partial, exact]);
    await expectListed(t.anonymous, search('relevance'), [exact, partial, described]);
    // Both pages and the total as any list's: relevance only orders.
    const first = await listProducts(t.anonymous, `${search('relevance')}&limit=2`);
    assert.deepEqual(idsOf(first), [exact, partial]);
    assert.equal(first.body.meta.total, 3);
    assert.deepEqual(idsOf(await listProducts(t.anonymous, `${search('relevance')}&limit=2&page=2`)), [described]);
    // Without a search there is nothing to rank: the default order. One order only: there is no least relevant first.
    await expectListed(t.anonymous, `category=${group}&sort=relevance`, [described, partial, exact]);
    expectValidation(await t.anonymous.get(`${API}/products?sort=-relevance`), 'sort');
    // The console's list sorts by what it shows, not by a search's rank.
    expectValidation(await t.admin.get(`${API}/admin/products?sort=relevance`), 'sort');
  });

  test('relevance: a brand holding the word lists its products after those named with it, before those that only mention it', async () => {
    const group = await productGroup(t.admin, 'Brand relevance');
    // Made best match first, so the newest-first default reverses them.
    const make = async (name: string, description: string, brand?: string) =>
      (await makeProduct(t.admin, { name, description, categories: [group], ...(brand ? { brand } : {}) })).id;
    const named = await make('Nordhavn Field Jacket', 'warm');
    const branded = await make('Field Jacket', 'warm', 'Nordhavn');
    const mentioned = await make('Field Jacket', 'as warm as a Nordhavn');
    await expectListed(t.anonymous, `category=${group}&search=nordhavn&sort=-created_at`, [mentioned, branded, named]);
    await expectListed(t.anonymous, `category=${group}&search=nordhavn&sort=relevance`, [named, branded, mentioned]);
  });

  test("a search that found nothing is offered in the catalog's words, only when that finds something under the same filters", async () => {
    const suggestion = async (query: string) =>
      expectStatus(await t.anonymous.get(`${API}/products/search-suggestion?${query}`), 200).search as string | null;
    const search = (words: string, where = cat) => `category=${where}&search=${encodeURIComponent(words)}`;
    assert.equal(await suggestion(search('waterprof trial')), 'waterproof trail');
    assert.equal(await suggestion(search('Lnen DRESS')), 'linen dress');
    // Where those words find nothing, nothing is offered: the suggestion is never another dead end.
    const elsewhere = await productGroup(t.admin, 'Elsewhere');
    assert.equal(await suggestion(search('waterprof trial', elsewhere)), null);
    // Every word known, too short to guess, a SKU, or too far from any word: nothing to offer.
    for (const words of ['waterproof hoodie', 'xz', 'QX-NOPE-1', 'zzzzzzzz']) assert.equal(await suggestion(search(words)), null, words);

    // The catalog's words follow the catalog: a product renamed is found by its new name's words at once.
    expectStatus(await t.admin.patch(`${API}/admin/products/${p.hoodie}`, { name: 'Zip Anorak' }), 200);
    assert.equal(await suggestion(search('anorka')), 'anorak');
    // Cacheable as any public read, and refused as any list's query is.
    const first = await t.anonymous.get(`${API}/products/search-suggestion?${search('anorka')}`);
    const again = await t.anonymous.get(`${API}/products/search-suggestion?${search('anorka')}`, {
      headers: { 'if-none-match': first.headers.get('etag')! },
    });
    assert.equal(again.status, 304);
    expectValidation(await t.anonymous.get(`${API}/products/search-suggestion`), 'search');
    expectValidation(await t.anonymous.get(`${API}/products/search-suggestion?search=x&sort=name`), 'sort');
  });
});

describe('category filter', () => {
  test('includes every subcategory depth; a product in two of them appears once', async () => {
    const parent = (await createCategory(t.admin, { name: `Parent ${uniqueSku()}` })).public_id;
    const child = (await createCategory(t.admin, { name: `Child ${uniqueSku()}`, parent_public_id: parent })).public_id;
    const grandchild = (await createCategory(t.admin, { name: `Grandchild ${uniqueSku()}`, parent_public_id: child })).public_id;
    const other = await productGroup(t.admin, 'Other');
    const inParent = (await makeProduct(t.admin, { name: 'C1 parent', categories: [parent] })).id;
    const inChild = (await makeProduct(t.admin, { name: 'C2 child', categories: [child] })).id;
    const inGrandchild = (await makeProduct(t.admin, { name: 'C3 grandchild', categories: [grandchild] })).id;
    const inTwo = (await makeProduct(t.admin, { name: 'C4 two', categories: [parent, grandchild] })).id;
    const inOther = (await makeProduct(t.admin, { name: 'C5 other', categories: [other] })).id;
    await makeProduct(t.admin, { name: 'C6 draft', status: 'DRAFT', categories: [grandchild] });

    await expectListed(t.anonymous, `category=${parent}&sort=name`, [inParent, inChild, inGrandchild, inTwo]);
    await expectListed(t.anonymous, `category=${child}&sort=name`, [inChild, inGrandchild, inTwo]);
    await expectListed(t.anonymous, `category=${grandchild}&sort=name`, [inGrandchild, inTwo]);
    await expectListed(t.anonymous, `category=${other}&sort=name`, [inOther]);
    await expectListed(t.anonymous, `category=cat_00000000000000000000`, []);
    await expectListed(t.anonymous, `category=not-an-id`, []);

    const viaCategory = await t.anonymous.get(`${API}/categories/${parent}/products?sort=name`);
    assert.deepEqual(idsOf(viaCategory), [inParent, inChild, inGrandchild, inTwo]);
    assert.equal(viaCategory.body.meta.total, 4);
  });
});

describe('price filter', () => {
  let cat: string;
  const p: Record<string, string> = {};
  before(async () => {
    cat = await productGroup(t.admin, 'Prices');
    p.one = (await makeProduct(t.admin, { name: 'P1', categories: [cat], variants: [{ price: '10.00' }, { price: '30.00' }] })).id;
    p.two = (await makeProduct(t.admin, { name: 'P2', categories: [cat], variants: [{ price: '20.00' }] })).id;
    p.three = (
      await makeProduct(t.admin, { name: 'P3', categories: [cat], variants: [{ price: '20.01', status: 'INACTIVE' }, { price: '5.00' }] })
    ).id;
    const four = await makeProduct(t.admin, { name: 'P4', categories: [cat], variants: [{ price: '25.00' }, { price: '100.00' }] });
    p.four = four.id;
    expectStatus(await t.admin.delete(`${API}/admin/variants/${four.variants[0].public_id}`), 204);
  });

  test('a product matches when one of its active variants is in range; bounds are inclusive', async () => {
    const q = (range: string) => `category=${cat}&sort=name&${range}`;
    await expectListed(t.anonymous, q('min_price=20&max_price=20'), [p.two!]);
    await expectListed(t.anonymous, q('min_price=20.00&max_price=20.00'), [p.two!]);
    await expectListed(t.anonymous, q('min_price=30'), [p.one!, p.four!]);
    await expectListed(t.anonymous, q('max_price=10'), [p.one!, p.three!]);
    await expectListed(t.anonymous, q('min_price=10&max_price=10'), [p.one!]);
    await expectListed(t.anonymous, q('min_price=5&max_price=5.00'), [p.three!]);
    // P3's 20.01 is inactive; P4's 25.00 is deleted.
    await expectListed(t.anonymous, q('min_price=20.01'), [p.one!, p.four!]);
    await expectListed(t.anonymous, q('min_price=21&max_price=29.99'), []);
    await expectListed(t.anonymous, q('min_price=0&max_price=1000'), [p.one!, p.two!, p.three!, p.four!]);
    await expectListed(t.anonymous, q('min_price=11&max_price=19'), []);
  });

  test('malformed prices are 400', async () => {
    for (const [name, value] of [
      ['min_price', 'abc'],
      ['min_price', '-1'],
      ['max_price', '1.234'],
      ['max_price', '1e2'],
    ]) {
      expectValidation(await listProducts(t.anonymous, `${name}=${value}`), name!);
    }
  });
});

describe('in_stock filter', () => {
  test('in_stock=true keeps products with an active, live variant whose on_hand - reserved > 0', async () => {
    const cat = await productGroup(t.admin, 'Stock');
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

    await expectListed(t.anonymous, `category=${cat}&sort=name&in_stock=true`, [partly.id, mixed.id]);
    const all = [reserved, partly, noRecord, inactive, zero, deleted, mixed].map((p) => p.id);
    await expectListed(t.anonymous, `category=${cat}&sort=name`, all);
    await expectListed(t.anonymous, `category=${cat}&sort=name&in_stock=false`, all);
    expectValidation(await listProducts(t.anonymous, 'in_stock=yes'), 'in_stock');

    const flags = (await listProducts(t.anonymous, `category=${cat}&sort=name`)).body.data.map((p: any) =>
      p.variants.map((v: any) => v.in_stock),
    );
    assert.deepEqual(flags, [[false], [true], [false], [], [false], [false], [false, true]]);
  });
});
