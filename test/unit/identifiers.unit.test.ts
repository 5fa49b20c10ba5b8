import assert from 'node:assert/strict';
import { test } from 'node:test';
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

test('page metadata and sort parameters', () => {
  assert.deepEqual(pageMeta({ page: 2, limit: 20 }, 41), { page: 2, limit: 20, total: 41, totalPages: 3, hasNext: true, hasPrev: true });
  assert.deepEqual(pageMeta({ page: 1, limit: 20 }, 0), { page: 1, limit: 20, total: 0, totalPages: 0, hasNext: false, hasPrev: false });
  assert.deepEqual(pageMeta({ page: 9, limit: 20 }, 41).hasNext, false);
  assert.deepEqual(parseSort('-price'), { field: 'price', direction: 'desc' });
  assert.deepEqual(parseSort('name'), { field: 'name', direction: 'asc' });
});
