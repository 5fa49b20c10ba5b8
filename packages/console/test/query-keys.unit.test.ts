import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as keys from '../src/api/query-keys';

/** Invalidating a key marks stale every query whose key starts with it. */
const startsWith = (key: readonly unknown[], prefix: readonly unknown[]) => prefix.every((part, i) => key[i] === part);

test("every key of a resource starts with that resource's `all`, and no two resources share a first part", () => {
  const firsts = new Set<unknown>();
  for (const [name, factory] of Object.entries(keys)) {
    if (!('all' in factory)) continue;
    const all = factory.all as readonly unknown[];
    assert.ok(!firsts.has(all[0]), `${name} has a first part of its own`);
    firsts.add(all[0]);
    for (const [member, make] of Object.entries(factory)) {
      if (member === 'all') continue;
      const key = typeof make === 'function' ? (make as (...args: unknown[]) => readonly unknown[])('id', { page: 1 }) : make;
      assert.ok(startsWith(key as readonly unknown[], all), `${name}.${member} starts with ${name}.all`);
    }
  }
  assert.ok(firsts.size >= 10);
});

test('a record is apart from its lists: one order or stock record is not a prefix of another', () => {
  assert.ok(!startsWith(keys.orderKeys.detail('ord_12'), keys.orderKeys.detail('ord_1')));
  assert.ok(startsWith(keys.inventoryKeys.movements('var_1', { page: 2 }), keys.inventoryKeys.all));
  assert.ok(!startsWith(keys.inventoryKeys.record('var_1'), keys.inventoryKeys.list({})));
});
