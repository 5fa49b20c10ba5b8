import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatMoney } from '../src/index.js';

/** Money as the storefront (en-US) and the console (the browser's locale) print what the API sends. */
test('two decimals whatever the currency prints by custom: yen none, dinar three', () => {
  assert.equal(formatMoney('48', 'USD', 'en-US'), '$48.00');
  assert.equal(formatMoney('1234567.5', 'USD', 'en-US'), '$1,234,567.50');
  assert.equal(formatMoney('5.01', 'JPY', 'en-US'), '¥5.01');
  assert.match(formatMoney('6.5', 'KWD', 'en-US'), /^KWD\s6\.50$/);
  assert.equal(formatMoney('0', 'EUR', 'en-US'), '€0.00');
});

test("by the locale asked for, each locale's format kept apart from another's", () => {
  assert.equal(formatMoney('1234.5', 'EUR', 'de-DE'), '1.234,50\u00a0€');
  assert.equal(formatMoney('1234.5', 'EUR', 'en-US'), '€1,234.50');
  // Ten digits and two decimals print to the cent.
  assert.equal(formatMoney('99999999.99', 'USD', 'en-US'), '$99,999,999.99');
});
