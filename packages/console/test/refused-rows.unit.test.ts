import assert from 'node:assert/strict';
import { test } from 'node:test';
import { refusedRowsCsv, refusedRowsFilename } from '../src/features/transfer/refused-rows';

const refusal = (line: number, field: string, message: string) => ({ line, sku: null, field, message });

test('the refused rows of a file, in its own columns and as it gave them, each with why in a last column', () => {
  const csv = ['\uFEFFsku,description,price', 'A-1,"Soft, warm",9.00', '', 'B-2,"Two', 'lines, ""quoted""",abc', 'C-3,,-1'].join('\r\n');
  assert.equal(
    refusedRowsCsv(csv, [
      refusal(3, 'price', 'must be a price like 19.99'),
      refusal(4, 'price', 'must be 0 or more'),
      refusal(3, 'sku', 'x'),
    ]),
    [
      'sku,description,price,refused_because',
      'B-2,"Two\r\nlines, ""quoted""",abc,"price: must be a price like 19.99\nsku: x"',
      'C-3,,-1,price: must be 0 or more',
      '',
    ].join('\r\n'),
  );
  assert.equal(refusedRowsFilename('Stock Count.CSV'), 'Stock Count-refused.csv');
});

test('a file of refused rows checked again keeps one refused_because column, with the new reasons', () => {
  const csv = 'sku,refused_because,price\nA-1,old reason,abc\n';
  assert.equal(refusedRowsCsv(csv, [refusal(2, 'price', 'new reason')]), 'sku,price,refused_because\r\nA-1,abc,price: new reason\r\n');
});
