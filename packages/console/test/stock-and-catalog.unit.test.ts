import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  flatten,
  pathLabel,
  pathNames,
  restoreOrder,
  swapWithNeighbour,
  treeOf,
  withPaths,
  type Category,
} from '../src/features/catalog/category-tree';
import {
  optionsText,
  parseOptions,
  productDeletionEffect,
  reservedByOrders,
  variantDeletionEffect,
  variantField,
} from '../src/features/catalog/variant-rules';
import {
  combinations,
  comboName,
  comboSku,
  gridBatch,
  gridField,
  sameOptions,
  skuPrefix,
} from '../src/features/catalog/variant-grid-rules';
import {
  adjustmentPreview,
  adjustmentRefusal,
  movementChange,
  reservationPreview,
  reservationRefusal,
} from '../src/features/inventory/figures';

const record = { quantity_on_hand: 10, quantity_reserved: 3, quantity_available: 7, reorder_level: 2 };

describe('stock previews: the figures before and after, as the confirmation shows them', () => {
  test('an adjustment by a change or to a count moves on hand and available together', () => {
    const added = adjustmentPreview(record, 'change', 5);
    assert.equal(added.onHand, 15);
    assert.deepEqual(added.lines, [
      ['On hand', '10', '15'],
      ['Available', '7', '12'],
    ]);
    const set = adjustmentPreview(record, 'set', 4);
    assert.equal(set.onHand, 4);
    assert.deepEqual(set.lines[1], ['Available', '7', '1']);
    assert.deepEqual(adjustmentPreview(record, 'change', -12).lines[0], ['On hand', '10', '-2']);
  });

  test('reserving takes from available; releasing gives back', () => {
    assert.deepEqual(reservationPreview(record, 2), [
      ['Reserved', '3', '5'],
      ['Available', '7', '5'],
    ]);
    assert.deepEqual(reservationPreview(record, -3), [
      ['Reserved', '3', '0'],
      ['Available', '7', '10'],
    ]);
  });
});

describe('stock changes the API would refuse, told before they are sent', () => {
  test('on hand never below zero; below what is reserved it may go', () => {
    assert.equal(adjustmentRefusal(record, 'change', -11), 'On-hand quantity cannot go below zero (it would be -1)');
    assert.equal(adjustmentRefusal(record, 'set', -1), 'On-hand quantity cannot go below zero (it would be -1)');
    assert.equal(adjustmentRefusal(record, 'change', -10), null, 'to zero, below the 3 reserved');
    assert.equal(adjustmentRefusal(record, 'set', 0), null);
  });

  test('a reservation needs units available; a release cannot go below zero reserved', () => {
    assert.equal(reservationRefusal(record, 7), null, 'every available unit');
    assert.equal(reservationRefusal(record, 999), 'Only 7 available: reserving 999 would leave -992');
    assert.equal(reservationRefusal(record, -3), null);
    assert.equal(reservationRefusal(record, -4), 'Only 3 reserved: releasing 4 would leave -1');
    const oversold = { ...record, quantity_on_hand: 2, quantity_available: -1 };
    assert.equal(reservationRefusal(oversold, -1), null, 'a release that improves availability is allowed');
    assert.match(reservationRefusal(oversold, 1)!, /^Only 0 available/);
  });

  test('a movement shows only the figures that moved, and where each ended', () => {
    const reservation = { delta_on_hand: 0, delta_reserved: 3, quantity_on_hand_after: 23, quantity_reserved_after: 3 };
    assert.equal(movementChange(reservation), 'Reserved +3, now 3');
    const shipment = { delta_on_hand: -2, delta_reserved: -2, quantity_on_hand_after: 21, quantity_reserved_after: 0 };
    assert.equal(movementChange(shipment), 'On hand −2, now 21 · Reserved −2, now 0');
    assert.equal(movementChange({ ...reservation, delta_reserved: 0 }), 'No change');
  });
});

describe('variants', () => {
  test('options are typed as name=value pairs and shown back the same way', () => {
    assert.deepEqual(parseOptions('size=M, colour = Blue'), { size: 'M', colour: 'Blue' });
    assert.deepEqual(parseOptions(''), {});
    assert.deepEqual(parseOptions('note=a=b'), { note: 'a=b' });
    assert.equal(parseOptions('size'), null);
    assert.equal(parseOptions('=M'), null);
    assert.equal(optionsText({ size: 'M', colour: 'Blue' }), 'size=M, colour=Blue');
    assert.deepEqual(parseOptions(optionsText({ a: '1', b: '2' })), { a: '1', b: '2' });
    assert.deepEqual([variantField('options.size'), variantField('price')], ['options', 'price']);
  });

  test('deleting says what happens to the stock record and to what orders hold', () => {
    assert.equal(
      reservedByOrders(1),
      'The 1 unit reserved by open orders stays reserved: those orders still ship, or give it back if cancelled.',
    );
    assert.match(reservedByOrders(2), /^The 2 units .* stay reserved: .* give them back/);
    const sold = { sku: 'STOOL-LOW', inventory: { quantity_on_hand: 5, quantity_reserved: 2 } };
    const bare = { sku: 'STOOL-HIGH', inventory: null };
    assert.match(variantDeletionEffect(sold), /^STOOL-LOW can no longer be bought.*\(5 on hand\) leaves Inventory.*The 2 units reserved/);
    assert.doesNotMatch(variantDeletionEffect(bare), /Inventory|reserved/);
    assert.equal(productDeletionEffect([]), 'It leaves the store at once. Past orders keep their lines and totals. There is no undo.');
    const both = productDeletionEffect([sold, bare, { sku: 'X', inventory: { quantity_on_hand: 1, quantity_reserved: 0 } }]);
    assert.match(both, /with its 3 variants: .*\(6 on hand\).*The 2 units reserved/);
  });
});

describe('the category tree', () => {
  const category = (public_id: string, parent_public_id: string | null, position: number, name = public_id): Category => ({
    public_id,
    name,
    slug: public_id,
    description: null,
    parent_public_id,
    position,
  });
  const list = [
    category('b', null, 10),
    category('a', null, 0),
    category('a2', 'a', 5),
    category('a1', 'a', 5, 'A one'),
    category('c', 'a2', 0),
  ];

  test('nests the flat list, siblings by position then name, each parent before its children', () => {
    const rows = flatten(treeOf(list));
    assert.deepEqual(
      rows.map((r) => [r.public_id, r.depth]),
      [
        ['a', 0],
        ['a1', 1],
        ['a2', 1],
        ['c', 2],
        ['b', 0],
      ],
    );
  });

  test('swapping with a neighbour renumbers the siblings, sends only what changes, and is undone exactly', () => {
    const siblings = [category('x', null, 0), category('y', null, 0), category('z', null, 30)];
    const swap = swapWithNeighbour(siblings[1]!, siblings, -1)!;
    assert.deepEqual(
      swap.order.map((s) => s.public_id),
      ['y', 'x', 'z'],
    );
    assert.deepEqual(
      swap.moves.map(([s, position]) => [s.public_id, position]),
      [
        ['x', 10],
        ['z', 20],
      ],
    );
    assert.deepEqual(
      restoreOrder(siblings, swap.order).map(([s, position]) => [s.public_id, position]),
      [
        ['x', 0],
        ['z', 30],
      ],
    );
    assert.equal(swapWithNeighbour(siblings[0]!, siblings, -1), null, 'the first cannot move up');
    assert.equal(swapWithNeighbour(siblings[2]!, siblings, 1), null, 'the last cannot move down');
  });

  test('each category with its path from the top, so two of the same name are told apart', () => {
    const paths = withPaths([...list, category('m', 'b', 0, 'A one')]);
    const plain = (label: string) => label.replace(/[\u2068\u2069]/g, '');
    assert.deepEqual(
      paths.map(({ category, path }) => [category.public_id, plain(pathLabel(path))]),
      [
        ['a', 'a'],
        ['a1', 'a › A one'],
        ['a2', 'a › a2'],
        ['c', 'a › a2 › c'],
        ['b', 'b'],
        ['m', 'b › A one'],
      ],
    );
  });

  test('each name of a path is isolated, so a control or a right-to-left name cannot reorder the names after it', () => {
    const label = pathLabel(['abc\u202Etxt', 'Mugs', 'כוסות']);
    assert.equal(label, '\u2068abc\u202Etxt\u2069 › \u2068Mugs\u2069 › \u2068כוסות\u2069');
    assert.deepEqual(pathNames(label), ['abc\u202Etxt', 'Mugs', 'כוסות']);
    assert.deepEqual(pathNames('Top level'), ['Top level']);
  });
});

describe('the variants grid', () => {
  test('rows go to the API trimmed, empty optional prices and reorder level left out; a refused field finds its row', () => {
    const row = {
      options: { size: 'S' },
      name: ' S ',
      sku: ' TEE-S ',
      price: '19.90 ',
      compare_at_price: ' ',
      cost_price: '8.50',
      stock: '3',
    };
    assert.deepEqual(
      gridBatch([
        { ...row, reorder_level: '' },
        { ...row, reorder_level: 4 },
      ]),
      {
        variants: [
          { sku: 'TEE-S', name: 'S', options: { size: 'S' }, price: '19.90', cost_price: '8.50', stock: { quantity_on_hand: 3 } },
          {
            sku: 'TEE-S',
            name: 'S',
            options: { size: 'S' },
            price: '19.90',
            cost_price: '8.50',
            stock: { quantity_on_hand: 3, reorder_level: 4 },
          },
        ],
      },
    );
    assert.equal(gridField('variants.2.sku'), 'rows.2.sku');
    assert.equal(gridField('variants.0.options.size'), 'rows.0.name');
    assert.equal(gridField('variants.1.stock.quantity_on_hand'), 'rows.1.stock');
    assert.equal(gridField('variants.1.stock.reorder_level'), 'rows.1.reorder_level');
  });

  test('every combination of the values picked, in order; empty axes and repeated values left out', () => {
    const combos = combinations([
      { name: 'size', values: ['S', 'M', 'L', 'M '] },
      { name: 'colour', values: ['Red', 'Blue'] },
      { name: '', values: ['x'] },
      { name: 'fit', values: [] },
    ]);
    assert.deepEqual(combos.map(comboName), ['S / Red', 'S / Blue', 'M / Red', 'M / Blue', 'L / Red', 'L / Blue']);
    assert.deepEqual(combos[1], { size: 'S', colour: 'Blue' });
    assert.deepEqual(combinations([{ name: 'size', values: [] }]), []);
  });

  test('SKUs from a prefix and the values, within the API’s rule; the same options in any order are the same', () => {
    assert.equal(skuPrefix('speckled-stoneware-mug'), 'SPECKLED-STONEWARE-MUG');
    assert.equal(comboSku('MUG', { size: 'S', colour: 'Navy blue' }), 'MUG-S-NAVY-BLUE');
    assert.equal(comboSku('Café', { size: 'XL/2' }), 'CAFE-XL-2');
    assert.match(comboSku('A'.repeat(70), { size: 'B'.repeat(20) }), /^[A-Z0-9][A-Z0-9-]{0,79}$/);
    assert.ok(sameOptions({ size: 'S', colour: 'Red' }, { colour: 'Red', size: 'S' }));
    assert.ok(!sameOptions({ size: 'S' }, { size: 'S', colour: 'Red' }));
  });
});
