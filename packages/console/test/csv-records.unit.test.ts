import assert from 'node:assert/strict';
import { test } from 'node:test';
import { csvRecordCounter } from '../src/lib/csv-records';

test('records are counted across chunks; a line break inside quotes is part of its field', () => {
  const file = 'sku,description\r\nA,"two\r\nlines"\r\nB,"a ""quoted"" word"\r\nC,plain\r\n';
  for (const size of [1, 2, 3, 7, file.length]) {
    const counter = csvRecordCounter();
    let records = 0;
    for (let i = 0; i < file.length; i += size) records = counter.add(file.slice(i, i + size));
    assert.equal(records, 4, `in chunks of ${size}`);
  }
});
