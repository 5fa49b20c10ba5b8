import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allowedFrom, canMove } from '../../src/orders/transitions.js';

const STATUSES = ['PLACED', 'CONFIRMED', 'SHIPPED', 'FULFILLED', 'CANCELLED'] as const;

test('the order lifecycle moves forward only, and cancels only before shipment', () => {
  const moves = STATUSES.flatMap((from) => STATUSES.filter((to) => canMove(from, to)).map((to) => `${from}->${to}`));
  assert.deepEqual(moves.sort(), [
    'CONFIRMED->CANCELLED',
    'CONFIRMED->SHIPPED',
    'PLACED->CANCELLED',
    'PLACED->CONFIRMED',
    'SHIPPED->FULFILLED',
  ]);
  for (const from of STATUSES)
    assert.deepEqual(
      [...allowedFrom(from)],
      STATUSES.filter((to) => canMove(from, to)),
    );
  assert.deepEqual([...allowedFrom('FULFILLED')], []);
  assert.deepEqual([...allowedFrom('CANCELLED')], []);
});
