import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { API, ISO, createCategory, expectStatus, idsOf, makeProduct } from './helpers/catalog.js';
import { auditRows } from './helpers/inspect.js';
import { errorOf } from './helpers/factories.js';
import { useApp } from './helpers/use-app.js';

/** Categories: a tree through parent links; public reads, admin writes, soft deletes. */

const t = useApp({ as: ['ADMIN'] });

const categoryRow = (publicId: string) =>
  t.db
    .selectFrom('categories as c')
    .leftJoin('categories as parent', 'parent.id', 'c.parent_id')
    .select(['c.name', 'c.slug', 'c.deleted_at', 'parent.public_id as parent_public_id'])
    .where('c.public_id', '=', publicId)
    .executeTakeFirstOrThrow();

function expectNotFound(response: { status: number; body: any; text: string }) {
  assert.equal(response.status, 404, response.text);
  assert.equal(errorOf(response).code, 'NOT_FOUND');
}

describe('POST /admin/categories', () => {
  test('201 with the category shape; slug from the name; top level by default; audited', async () => {
    const response = await t.admin.post(`${API}/admin/categories`, { name: 'Home & Garden' });
    const { public_id, created_at, updated_at, ...rest } = expectStatus(response, 201);
    assert.match(public_id, /^cat_[0-9A-Za-z]{16,}$/);
    assert.match(created_at, ISO);
    assert.match(updated_at, ISO);
    assert.deepEqual(rest, { name: 'Home & Garden', slug: 'home-garden', description: null, parent_public_id: null, position: 0 });
    const [audit] = await auditRows(t, 'category.create', public_id);
    assert.deepEqual(audit!.changes, {
      before: null,
      after: { name: 'Home & Garden', slug: 'home-garden', description: null, parent_public_id: null, position: 0 },
    });
  });

  test('a child names its parent; unknown parent 404; duplicate slug 409; bad bodies 400', async () => {
    const parent = await createCategory(t.admin, { name: 'Outdoor', slug: 'outdoor' });
    const child = await createCategory(t.admin, { name: 'Tents', description: 'Shelter', position: 3, parent_public_id: parent.public_id });
    assert.equal(child.parent_public_id, parent.public_id);
    assert.equal(child.description, 'Shelter');
    assert.equal(child.position, 3);
    assert.equal((await categoryRow(child.public_id)).parent_public_id, parent.public_id);

    expectNotFound(await t.admin.post(`${API}/admin/categories`, { name: 'Lost', parent_public_id: 'cat_00000000000000000000' }));
    expectNotFound(await t.admin.post(`${API}/admin/categories`, { name: 'Lost', parent_public_id: 'nonsense' }));

    const clash = await t.admin.post(`${API}/admin/categories`, { name: 'Other', slug: 'outdoor' });
    assert.equal(clash.status, 409);
    assert.equal(errorOf(clash).code, 'SLUG_TAKEN');
    const generated = await createCategory(t.admin, { name: 'Outdoor' });
    assert.match(generated.slug, /^outdoor-[a-z0-9]{6}$/);

    for (const body of [
      {},
      { name: '' },
      { name: ' ' },
      { name: 'x'.repeat(101) },
      { name: 'A', slug: 'Not Valid' },
      { name: 'A', colour: 'red' },
      { name: 'A', position: -1 },
    ]) {
      const response = await t.admin.post(`${API}/admin/categories`, body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
    }
    assert.equal((await t.db.selectFrom('categories').select('id').where('name', 'in', ['Lost', 'Other', 'A']).execute()).length, 0);
  });
});

describe('GET /categories', () => {
  let root: any;
  let children: any[];
  before(async () => {
    root = await createCategory(t.admin, { name: 'Listing Root', position: 0 });
    children = [];
    // Position first, then name, then public ID.
    children.push(await createCategory(t.admin, { name: 'Zeta', position: 1, parent_public_id: root.public_id }));
    children.push(await createCategory(t.admin, { name: 'Alpha', position: 2, parent_public_id: root.public_id }));
    children.push(await createCategory(t.admin, { name: 'Beta', position: 2, parent_public_id: root.public_id }));
    await createCategory(t.admin, { name: 'Listing Grandchild', parent_public_id: children[0].public_id });
  });

  test('flat list, each with its parent_public_id, paged with exact meta', async () => {
    const all = await t.anonymous.get(`${API}/categories?limit=100`);
    assert.equal(all.status, 200);
    const rows = await t.db.selectFrom('categories').select('public_id').where('deleted_at', 'is', null).execute();
    assert.equal(all.body.meta.total, rows.length);
    assert.deepEqual(new Set(idsOf(all)), new Set(rows.map((r) => r.public_id)));
    const zeta = all.body.data.find((c: any) => c.public_id === children[0].public_id);
    assert.equal(zeta.parent_public_id, root.public_id);

    const total = rows.length;
    const page = await t.anonymous.get(`${API}/categories?limit=2&page=2`);
    assert.deepEqual(page.body.meta, {
      page: 2,
      limit: 2,
      total,
      totalPages: Math.ceil(total / 2),
      hasNext: 2 < Math.ceil(total / 2),
      hasPrev: true,
    });
    assert.deepEqual(idsOf(page), idsOf(all).slice(2, 4));
    const past = await t.anonymous.get(`${API}/categories?limit=2&page=99`);
    assert.deepEqual(past.body.data, []);
    assert.equal(past.body.meta.total, total);

    assert.equal((await t.anonymous.get(`${API}/categories?limit=101`)).status, 400);
    assert.equal((await t.anonymous.get(`${API}/categories?page=0`)).status, 400);
  });

  test('parent=<cat> lists direct children in position, name order; parent=root lists top level', async () => {
    const direct = await t.anonymous.get(`${API}/categories?parent=${root.public_id}`);
    assert.deepEqual(
      direct.body.data.map((c: any) => c.name),
      ['Zeta', 'Alpha', 'Beta'],
    );
    assert.deepEqual(direct.body.meta, { page: 1, limit: 20, total: 3, totalPages: 1, hasNext: false, hasPrev: false });

    const top = await t.anonymous.get(`${API}/categories?parent=root&limit=100`);
    assert.ok(top.body.data.every((c: any) => c.parent_public_id === null));
    assert.ok(idsOf(top).includes(root.public_id));
    assert.ok(!idsOf(top).includes(children[0].public_id));

    assert.deepEqual((await t.anonymous.get(`${API}/categories?parent=cat_00000000000000000000`)).body.data, []);
    assert.deepEqual((await t.anonymous.get(`${API}/categories?parent=garbage`)).body.data, []);
  });

  test('GET /categories/{cat}: 200 for a live one, 404 for unknown or malformed', async () => {
    const one = await t.anonymous.get(`${API}/categories/${children[1].public_id}`);
    assert.deepEqual(one.body, { success: true, data: children[1] });
    for (const id of ['cat_00000000000000000000', 'cat_x', `prd_${root.public_id.slice(4)}`, root.public_id.slice(4)]) {
      expectNotFound(await t.anonymous.get(`${API}/categories/${id}`));
      expectNotFound(await t.anonymous.get(`${API}/categories/${id}/products`));
    }
  });
});

describe('PATCH /admin/categories/{cat}', () => {
  test('renames, moves, and moves back to the top level', async () => {
    const a = await createCategory(t.admin, { name: 'Move A' });
    const b = await createCategory(t.admin, { name: 'Move B' });
    const renamed = expectStatus(await t.admin.patch(`${API}/admin/categories/${b.public_id}`, { name: 'Move B2' }), 200);
    assert.equal(renamed.name, 'Move B2');
    assert.equal(renamed.slug, 'move-b');
    assert.equal(renamed.parent_public_id, null);

    const moved = expectStatus(await t.admin.patch(`${API}/admin/categories/${b.public_id}`, { parent_public_id: a.public_id }), 200);
    assert.equal(moved.parent_public_id, a.public_id);
    assert.equal(moved.name, 'Move B2');
    assert.equal((await categoryRow(b.public_id)).parent_public_id, a.public_id);

    const back = expectStatus(await t.admin.patch(`${API}/admin/categories/${b.public_id}`, { parent_public_id: null }), 200);
    assert.equal(back.parent_public_id, null);
    assert.equal((await auditRows(t, 'category.update', b.public_id)).length, 3);
  });

  test('moving under itself or one of its descendants is 400 and changes nothing', async () => {
    const top = await createCategory(t.admin, { name: 'Cycle Top' });
    const middle = await createCategory(t.admin, { name: 'Cycle Middle', parent_public_id: top.public_id });
    const bottom = await createCategory(t.admin, { name: 'Cycle Bottom', parent_public_id: middle.public_id });
    for (const target of [top, middle, bottom]) {
      const response = await t.admin.patch(`${API}/admin/categories/${top.public_id}`, { parent_public_id: target.public_id });
      assert.equal(response.status, 400, response.text);
      assert.equal(errorOf(response).code, 'VALIDATION_ERROR');
    }
    const self = await t.admin.patch(`${API}/admin/categories/${middle.public_id}`, { parent_public_id: middle.public_id });
    assert.equal(self.status, 400);
    assert.equal((await categoryRow(top.public_id)).parent_public_id, null);
    assert.equal((await categoryRow(middle.public_id)).parent_public_id, top.public_id);
    // Moving down the tree the other way is fine.
    expectStatus(await t.admin.patch(`${API}/admin/categories/${bottom.public_id}`, { parent_public_id: top.public_id }), 200);
  });

  test('concurrent moves that together would make a cycle: one wins, the other is 400, never a 500 or a cycle', async () => {
    /** Follows parent links from a category; throws on a cycle. */
    async function depth(publicId: string) {
      let current: string | null = publicId;
      for (let steps = 0; current !== null; steps++) {
        if (steps > 50) throw new Error(`cycle through ${publicId}`);
        current = (await categoryRow(current)).parent_public_id;
      }
    }
    for (let round = 0; round < 5; round++) {
      // Two nodes: A under B while B goes under A.
      const a = await createCategory(t.admin, { name: `Race A ${round}` });
      const b = await createCategory(t.admin, { name: `Race B ${round}` });
      // Three nodes: B2 is under C; A2 goes under B2 while C goes under A2.
      const c = await createCategory(t.admin, { name: `Race C ${round}` });
      const b2 = await createCategory(t.admin, { name: `Race B2 ${round}`, parent_public_id: c.public_id });
      const a2 = await createCategory(t.admin, { name: `Race A2 ${round}` });
      const move = (child: any, parent: any) =>
        t.admin.patch(`${API}/admin/categories/${child.public_id}`, { parent_public_id: parent.public_id });
      const results = await Promise.all([move(a, b), move(b, a), move(a2, b2), move(c, a2)]);
      for (const pair of [results.slice(0, 2), results.slice(2)]) {
        assert.deepEqual(pair.map((r) => r.status).sort(), [200, 400], pair.map((r) => r.text).join('\n'));
        assert.equal(errorOf(pair.find((r) => r.status === 400)!).code, 'VALIDATION_ERROR');
      }
      for (const node of [a, b, c, b2, a2]) await depth(node.public_id);
    }
  });

  test('{} and unknown fields are 400; a taken slug 409; unknown parent or category 404', async () => {
    const c = await createCategory(t.admin, { name: 'Patchy', slug: 'patchy' });
    await createCategory(t.admin, { name: 'Taken', slug: 'taken-slug' });
    assert.equal((await t.admin.patch(`${API}/admin/categories/${c.public_id}`, {})).status, 400);
    assert.equal((await t.admin.patch(`${API}/admin/categories/${c.public_id}`, { nam: 'x' })).status, 400);
    assert.equal(errorOf(await t.admin.patch(`${API}/admin/categories/${c.public_id}`, { slug: 'taken-slug' })).code, 'SLUG_TAKEN');
    expectNotFound(await t.admin.patch(`${API}/admin/categories/${c.public_id}`, { parent_public_id: 'cat_00000000000000000000' }));
    expectNotFound(await t.admin.patch(`${API}/admin/categories/cat_00000000000000000000`, { name: 'x' }));
    assert.deepEqual(await categoryRow(c.public_id), { name: 'Patchy', slug: 'patchy', deleted_at: null, parent_public_id: null });
  });
});

describe('DELETE /admin/categories/{cat}', () => {
  test('soft delete: the row stays; its children move up to its parent; it disappears from reads', async () => {
    const grand = await createCategory(t.admin, { name: 'Del Grand' });
    const doomed = await createCategory(t.admin, { name: 'Del Doomed', parent_public_id: grand.public_id });
    const kid1 = await createCategory(t.admin, { name: 'Del Kid 1', parent_public_id: doomed.public_id });
    const kid2 = await createCategory(t.admin, { name: 'Del Kid 2', parent_public_id: doomed.public_id });
    const { id: product } = await makeProduct(t.admin, { categories: [kid1.public_id] });

    const response = await t.admin.delete(`${API}/admin/categories/${doomed.public_id}`);
    assert.equal(response.status, 204);
    assert.equal(response.text, '');

    assert.ok((await categoryRow(doomed.public_id)).deleted_at instanceof Date);
    assert.equal((await categoryRow(kid1.public_id)).parent_public_id, grand.public_id);
    assert.equal((await categoryRow(kid2.public_id)).parent_public_id, grand.public_id);
    assert.equal((await t.anonymous.get(`${API}/categories/${kid1.public_id}`)).body.data.parent_public_id, grand.public_id);

    expectNotFound(await t.anonymous.get(`${API}/categories/${doomed.public_id}`));
    expectNotFound(await t.anonymous.get(`${API}/categories/${doomed.public_id}/products`));
    assert.ok(!idsOf(await t.anonymous.get(`${API}/categories?limit=100`)).includes(doomed.public_id));
    assert.deepEqual(
      idsOf(await t.anonymous.get(`${API}/categories?parent=${grand.public_id}`)).sort(),
      [kid1.public_id, kid2.public_id].sort(),
    );
    // The subtree filter still reaches the moved children.
    assert.deepEqual(idsOf(await t.anonymous.get(`${API}/products?category=${grand.public_id}`)), [product]);

    expectNotFound(await t.admin.delete(`${API}/admin/categories/${doomed.public_id}`));
    expectNotFound(await t.admin.patch(`${API}/admin/categories/${doomed.public_id}`, { name: 'zombie' }));
    expectNotFound(await t.admin.post(`${API}/admin/categories`, { name: 'Under the dead', parent_public_id: doomed.public_id }));
    assert.equal((await auditRows(t, 'category.delete', doomed.public_id)).length, 1);
  });

  test('deleting a top-level category makes its children top level; its slug is free again', async () => {
    const top = await createCategory(t.admin, { name: 'Del Top', slug: 'del-top' });
    const kid = await createCategory(t.admin, { name: 'Del Top Kid', parent_public_id: top.public_id });
    assert.equal((await t.admin.delete(`${API}/admin/categories/${top.public_id}`)).status, 204);
    assert.equal((await categoryRow(kid.public_id)).parent_public_id, null);
    assert.equal((await createCategory(t.admin, { name: 'Del Top Again', slug: 'del-top' })).slug, 'del-top');
  });
});

describe('GET /categories/{cat}/products', () => {
  test('lists the ACTIVE products of the category and its subcategories', async () => {
    const parent = await createCategory(t.admin, { name: 'Shop Parent' });
    const child = await createCategory(t.admin, { name: 'Shop Child', parent_public_id: parent.public_id });
    const a = await makeProduct(t.admin, { name: 'Shop A', categories: [parent.public_id] });
    const b = await makeProduct(t.admin, { name: 'Shop Bravo', categories: [child.public_id] });
    await makeProduct(t.admin, { name: 'Shop Draft', status: 'DRAFT', categories: [child.public_id] });
    await makeProduct(t.admin, { name: 'Shop Elsewhere' });

    const response = await t.anonymous.get(`${API}/categories/${parent.public_id}/products?sort=name`);
    assert.equal(response.status, 200);
    assert.deepEqual(idsOf(response), [a.id, b.id]);
    assert.deepEqual(response.body.meta, { page: 1, limit: 20, total: 2, totalPages: 1, hasNext: false, hasPrev: false });
    assert.deepEqual(idsOf(await t.anonymous.get(`${API}/categories/${child.public_id}/products`)), [b.id]);
    assert.deepEqual(idsOf(await t.anonymous.get(`${API}/categories/${parent.public_id}/products?search=bravo%20shop`)), [b.id]);
    assert.equal((await t.anonymous.get(`${API}/categories/${parent.public_id}/products?sort=bogus`)).status, 400);
  });
});
