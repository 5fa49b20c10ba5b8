import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { slugify } from '../../src/catalog/slug.js';
import { toCsv } from '../../src/lib/csv.js';
import { isPublicId, newPublicId } from '../../src/lib/ids.js';
import { pageMeta, parseSort } from '../../src/lib/pagination.js';

test('public IDs carry their prefix and are recognised only with it', () => {
  const id = newPublicId('prd');
  assert.match(id, /^prd_[A-Za-z0-9_-]{16,}$/);
  assert.equal(isPublicId('prd', id), true);
  assert.equal(isPublicId('var', id), false);
  assert.equal(isPublicId('prd', 'prd_short'), false);
  assert.equal(isPublicId('prd', `${id}'--`), false);
  assert.notEqual(newPublicId('prd'), newPublicId('prd'));
});

test('slugs are lower-case ASCII words joined by hyphens, never empty, at most 100 characters', () => {
  assert.equal(slugify("Men's Shoes & Boots"), 'mens-shoes-boots');
  assert.equal(slugify('Crème Brûlée'), 'creme-brulee');
  assert.equal(slugify('!!!'), 'item');
  fc.assert(
    fc.property(fc.string({ maxLength: 300 }), (name) => {
      const slug = slugify(name);
      return /^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug) && slug.length <= 100;
    }),
  );
});

test('page metadata and sort parameters', () => {
  assert.deepEqual(pageMeta({ page: 2, limit: 20 }, 41), { page: 2, limit: 20, total: 41, totalPages: 3, hasNext: true, hasPrev: true });
  assert.deepEqual(pageMeta({ page: 1, limit: 20 }, 0), { page: 1, limit: 20, total: 0, totalPages: 0, hasNext: false, hasPrev: false });
  assert.deepEqual(pageMeta({ page: 9, limit: 20 }, 41).hasNext, false);
  assert.deepEqual(parseSort('-price'), { field: 'price', direction: 'desc' });
  assert.deepEqual(parseSort('name'), { field: 'name', direction: 'asc' });
});

test('CSV cells are quoted as RFC 4180 says, and formulas are defused', () => {
  const csv = toCsv(
    ['a', 'b', 'c'],
    [{ a: 'plain', b: 'with, comma', c: 'say "hi"' }, { a: '=SUM(A1)', b: '-12.50', c: '@cmd' }, { a: null }],
  );
  assert.equal(csv, 'a,b,c\r\nplain,"with, comma","say ""hi"""\r\n\'=SUM(A1),-12.50,\'@cmd\r\n,,\r\n');
});
