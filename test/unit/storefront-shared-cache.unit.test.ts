import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sharedCacheRecord } from '../../packages/storefront/src/lib/server/shared-cache.js';

/** When a storefront page may be kept by a shared cache, from the API answers it was built from. */

const PUBLIC = {
  'cache-control': 'public, max-age=0, s-maxage=300',
  'surrogate-control': 'max-age=300, stale-while-revalidate=30',
};
const answer = (headers: Record<string, string>, status = 200) => new Response(status === 304 ? null : '{}', { status, headers });

/** A fetch that answers each path as `answers` says (a function throws, as an unreachable API does). */
function api(answers: Record<string, () => Response>): typeof fetch {
  return async (input) => answers[new URL(input instanceof Request ? input.url : String(input)).pathname]!();
}

test('public answers make a keepable page under all their keys and their own policy', async () => {
  const record = sharedCacheRecord();
  const fetch = record.recording(
    api({
      '/api/v1/products/by-slug/shirt': () => answer({ ...PUBLIC, 'surrogate-key': 'prd_1' }),
      '/api/v1/products/prd_1/reviews': () => answer({ ...PUBLIC, 'surrogate-key': 'reviews:prd_1 prd_1' }),
      '/api/v1/categories': () => answer(PUBLIC, 304),
    }),
  );
  await fetch('http://api/api/v1/products/by-slug/shirt');
  await fetch(new Request('http://api/api/v1/products/prd_1/reviews'));
  await fetch('http://api/api/v1/categories');
  record.addKeys('store');
  assert.deepEqual(record.headers(), {
    ...PUBLIC,
    'surrogate-key': 'prd_1 reviews:prd_1 store',
    'cache-tag': 'prd_1,reviews:prd_1,store',
  });
});

test('one private answer, a failed one, a write or an unreachable API makes the page private; a live read it accepts does not', async () => {
  const build = () => {
    const record = sharedCacheRecord();
    const fetch = record.recording(
      api({
        '/api/v1/products/prd_1': () => answer({ ...PUBLIC, 'surrogate-key': 'prd_1' }),
        '/api/v1/products/prd_1/stock': () => answer({ 'cache-control': 'private, no-store' }),
        '/api/v1/products/prd_2': () => answer({ 'cache-control': 'no-store' }, 404),
        '/api/v1/cart/items': () => answer({ 'cache-control': 'private, no-store' }),
        '/api/v1/categories': () => {
          throw new TypeError('fetch failed');
        },
      }),
    );
    return { record, fetch };
  };
  const stock = build();
  await stock.fetch('http://api/api/v1/products/prd_1');
  await stock.fetch('http://api/api/v1/products/prd_1/stock');
  assert.equal(stock.record.headers(), null);
  stock.record.acceptLive('/stock');
  assert.equal(stock.record.headers()?.['surrogate-key'], 'prd_1');

  const failed = build();
  await failed.fetch('http://api/api/v1/products/prd_1');
  await failed.fetch('http://api/api/v1/products/prd_2');
  assert.equal(failed.record.headers(), null);

  const write = build();
  await write.fetch('http://api/api/v1/products/prd_1');
  await write.fetch('http://api/api/v1/cart/items', { method: 'POST' });
  assert.equal(write.record.headers(), null);

  const unreachable = build();
  await unreachable.fetch('http://api/api/v1/products/prd_1');
  await assert.rejects(unreachable.fetch('http://api/api/v1/categories'));
  assert.equal(unreachable.record.headers(), null);

  assert.equal(sharedCacheRecord().headers(), null, 'a page built from no API answer at all names nothing to purge it by');
});

test('a page that learnt without a request that its kept data is current takes the API policy handed over, as from a 304', async () => {
  const record = sharedCacheRecord();
  record.addKeys('store', 'categories');
  assert.equal(record.headers(), null, 'no policy yet: nothing says how long a shared cache may keep it');
  record.addPolicy({ ...PUBLIC, 'cdn-cache-control': 'max-age=300' });
  assert.deepEqual(record.headers(), {
    ...PUBLIC,
    'cdn-cache-control': 'max-age=300',
    'surrogate-key': 'categories store',
    'cache-tag': 'categories,store',
  });
  // The first public policy stands, whichever way it came.
  const fetched = sharedCacheRecord();
  const fetch = fetched.recording(api({ '/api/v1/products/prd_1': () => answer({ ...PUBLIC, 'surrogate-key': 'prd_1' }) }));
  await fetch('http://api/api/v1/products/prd_1');
  fetched.addPolicy({ 'cache-control': 'public, max-age=1' });
  assert.equal(fetched.headers()?.['cache-control'], PUBLIC['cache-control']);
});
