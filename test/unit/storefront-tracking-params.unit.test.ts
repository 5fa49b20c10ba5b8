import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { dropTracking, TRACKING_PARAMS, TRACKING_PREFIX } from '../../packages/storefront/src/lib/tracking-params.js';

/**
 * Campaign tags and ad-click IDs are taken out of a page request's URL by the storefront (before its
 * micro-cache and its pages read it) and by the Varnish configuration in front: the two name the same.
 */

test('the Varnish configuration takes out of page URLs exactly the parameters the storefront drops', () => {
  const vcl = readFileSync(new URL('../../deploy/varnish/commerce.vcl', import.meta.url), 'utf8');
  const lists = [...vcl.matchAll(/\(utm_\[\^&=\]\*\|([\w|]+)\)/g)].map((match) => new Set(match[1]!.split('|')));
  assert.equal(lists.length, 1, 'the VCL names them once');
  for (const list of lists) assert.deepEqual(list, TRACKING_PARAMS);
  assert.equal(TRACKING_PREFIX, 'utm_');
});

test('tracking parameters leave the URL wherever they stand; the rest stay as written', () => {
  const cases: [string, string][] = [
    ['/p/x?utm_source=a&size=M&gclid=1', '/p/x?size=M'],
    ['/p/x?utm_source=a', '/p/x'],
    ['/search?q=caf%C3%A9+au+lait&fbclid=x&utm_content', '/search?q=caf%C3%A9+au+lait'],
    ['/p/x?size=M&gclidx=1&utm=2', '/p/x?size=M&gclidx=1&utm=2'],
    // Every other piece as it was written: the page's own key in the micro-cache is the one without them.
    ['/c/x?q=a%20b&flag&&utm_source=x', '/c/x?q=a%20b&flag&'],
    ['/c/x?q=a%20b', '/c/x?q=a%20b'],
    // Named as URLSearchParams reads a name (the page would read it so).
    ['/p/x?%75tm_source=a&size=S', '/p/x?size=S'],
    ['/p/x?next=%2Fp%3Futm_source%3Da', '/p/x?next=%2Fp%3Futm_source%3Da'],
  ];
  for (const [from, to] of cases) {
    const url = dropTracking(new URL(`http://shop${from}`));
    assert.equal(url.pathname + url.search, to, from);
  }
});
