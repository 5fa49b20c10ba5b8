import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ordersSearch } from '../src/features/orders/search';
import { reviewsSearch } from '../src/features/reviews/search';
import { moneySearch } from '../src/features/money/search';
import { safeRedirect } from '../src/features/sign-in/search';
import {
  compact,
  date,
  dayAfter,
  dayStart,
  flag,
  instant,
  instantRange,
  oneOf,
  page,
  pageOrNone,
  parseSearchText,
  stringifySearchText,
  text,
} from '../src/lib/search';
import { productsSearch } from '../src/features/catalog/search';

describe('URL search params are read as the text they are', () => {
  test('a search that looks like a number, a boolean or JSON stays the text that was typed', () => {
    for (const q of ['12E45678', '1.50', '1e3', '007', 'true', 'null', '[1]', '{"a":1}', '-5', '"quoted"', 'a&b=c', 'größe 42']) {
      const url = stringifySearchText({ q, page: 2 });
      assert.deepEqual(productsSearch(parseSearchText(url)), { page: 2, q, status: undefined, sort: undefined }, url);
    }
    assert.equal(stringifySearchText({ q: '12E45678', page: 2 }), '?q=12E45678&page=2', 'readable, as typed');
    assert.equal(productsSearch(parseSearchText('?q=12E45678')).q, '12E45678', 'a hand-written link');
    assert.equal(productsSearch(parseSearchText('?q=%22mug%22')).q, 'mug', 'a link the JSON form wrote');
    assert.equal(stringifySearchText({ q: undefined, status: null }), '');
    assert.deepEqual(parseSearchText('?flag=true&page=3'), { flag: 'true', page: '3' });
  });
});

describe('URL search params: malformed values fall back to the defaults', () => {
  test('page: a whole number from 1 to 100,000, else 1; absent stays absent', () => {
    assert.deepEqual([page('3'), page(7), page('0'), page('-2'), page('1.5'), page('x'), page(100_001)], [3, 7, 1, 1, 1, 1, 1]);
    assert.equal(pageOrNone(undefined), undefined);
    assert.equal(pageOrNone('junk'), 1);
  });

  test('text: trimmed, capped, empty is nothing; numbers are read as text', () => {
    assert.equal(text('  mug  '), 'mug');
    assert.equal(text('   '), undefined);
    assert.equal(text(42), '42');
    assert.equal(text({}), undefined);
    assert.equal(text('x'.repeat(300))!.length, 200);
    assert.equal(text('abcdef', 3), 'abc');
  });

  test('oneOf, date, flag and instant accept only their own shapes', () => {
    assert.equal(oneOf('b', ['a', 'b'] as const), 'b');
    assert.equal(oneOf('c', ['a', 'b'] as const), undefined);
    assert.equal(oneOf(1, ['1'] as const), undefined);
    assert.equal(date('2026-02-03'), '2026-02-03');
    assert.equal(date('2026-2-3'), undefined);
    assert.deepEqual([flag('true'), flag(false), flag('yes')], [true, false, undefined]);
    assert.equal(instant('2026-11-18T14:05:00.000Z'), '2026-11-18T14:05:00.000Z');
    assert.equal(instant('2026-11-18T14:05:00Z'), '2026-11-18T14:05:00.000Z');
    assert.equal(instant('2026-11-18'), undefined);
    assert.equal(instant('2026-13-45T99:99:99Z'), undefined);
  });

  test('compact drops what is empty, so a cleared filter leaves the URL', () => {
    assert.deepEqual(compact({ page: 1, q: '', status: undefined, sort: null, from: '2026-01-01' }), { page: 1, from: '2026-01-01' });
  });

  test('days are UTC days: a range is an inclusive start and an exclusive end, a dashboard start wins when later', () => {
    assert.equal(dayStart('2026-03-01'), '2026-03-01T00:00:00.000Z');
    assert.equal(dayAfter('2026-02-28'), '2026-03-01T00:00:00.000Z');
    assert.deepEqual(instantRange({ from: '2026-03-01', to: '2026-03-02' }), {
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-03-03T00:00:00.000Z',
    });
    assert.deepEqual(instantRange({ from: '2026-03-01', since: '2026-03-01T10:00:00.000Z' }).from, '2026-03-01T10:00:00.000Z');
    assert.deepEqual(instantRange({ from: '2026-03-02', since: '2026-03-01T10:00:00.000Z' }).from, '2026-03-02T00:00:00.000Z');
    assert.deepEqual(instantRange({}), { from: undefined, to: undefined });
  });
});

describe("the screens' URLs", () => {
  test('the orders list keeps what the API takes and drops the rest', () => {
    assert.deepEqual(ordersSearch({ page: '2', status: 'SHIPPED', q: ' ORD-1 ', sort: 'total', since: 'soon', from: '2026-01-01' }), {
      page: 2,
      status: 'SHIPPED',
      q: 'ORD-1',
      from: '2026-01-01',
      to: undefined,
      since: undefined,
      sort: 'total',
    });
    const junk = ordersSearch({ status: 'LOST', sort: 'name' });
    assert.deepEqual([junk.status, junk.sort, junk.page], [undefined, undefined, undefined]);
  });

  test('reviews: a view is a status or ALL; a rating is 1 to 5, as a number or text', () => {
    assert.deepEqual(reviewsSearch({ status: 'ALL', rating: 4 }), { page: undefined, status: 'ALL', rating: '4', sort: undefined });
    assert.deepEqual(reviewsSearch({ status: 'SPAM', rating: '6' }).status, undefined);
    assert.deepEqual(reviewsSearch({ rating: '6' }).rating, undefined);
  });

  test('money: an expense category is one of the API’s', () => {
    assert.equal(moneySearch({ category: 'RENT' }).category, 'RENT');
    assert.equal(moneySearch({ category: 'rent' }).category, undefined);
    assert.equal(moneySearch({ coupon_page: '3' }).coupon_page, 3);
  });

  test('after sign-in only a path inside the console is followed', () => {
    const origin = 'https://shop.example';
    assert.equal(safeRedirect(undefined, origin), '/');
    assert.equal(safeRedirect('/admin/orders?status=PLACED', origin), '/orders?status=PLACED');
    assert.equal(safeRedirect('https://shop.example/admin/money', origin), '/money');
    assert.equal(safeRedirect('/admin', origin), '/');
    assert.equal(safeRedirect('https://evil.example/admin/orders', origin), '/');
    assert.equal(safeRedirect('//evil.example/admin', origin), '/');
  });
});
