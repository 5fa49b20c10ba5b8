import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { accessibilityProblems, describeViolations } from '../helpers/browser.js';
import { checkout } from '../helpers/commerce.js';
import {
  customer,
  DESKTOP,
  inShop,
  mailTo,
  makeShop,
  pathOf,
  PHONE,
  sidewaysScroll,
  signInThroughShop,
  startShop,
} from '../helpers/storefront.js';

/**
 * Every kind of page, checked with axe-core against WCAG 2.1 A and AA (serious and critical
 * findings fail), at a phone's width and a desktop's; at 360 px none may scroll sideways, and its
 * links and buttons are at least 24 x 24 CSS pixels (WCAG 2.2's minimum target size; most are 44).
 */
const { t: app, browser } = await startShop();
const { product, shirts, admin } = await makeShop(app);
// One variant sold out, to be chosen on its page: a chosen chip that is also struck through.
const soldOut = product.variants[3]!;
await admin.patch(`/api/v1/admin/inventory/${soldOut.id}`, { quantity_change: -20 });
const buyer = await customer(app);
await buyer.client.post('/api/v1/cart/items', { variant_public_id: product.variants[0]!.id, quantity: 1 });
const address = (await buyer.client.get('/api/v1/users/me/addresses')).body.data[0];
const order = (await checkout(buyer.client, address.public_id)).body.data;
await buyer.client.post('/api/v1/cart/items', { variant_public_id: product.variants[1]!.id, quantity: 2 });
await buyer.client.post('/api/v1/users/me/email', { new_email: `${buyer.email}.moved`, password: buyer.password });
const changeLink = pathOf((await mailTo(app, `${buyer.email}.moved`, /^Confirm your new email/)).link!);
const verifyLink = pathOf((await mailTo(app, buyer.email, /^Verify your email address$/)).link!);

const ANONYMOUS = [
  '/',
  `/c/${shirts.slug}`,
  '/search?q=linen',
  `/p/${product.slug}`,
  `/p/${product.slug}?size=${soldOut.options.size}&colour=${soldOut.options.colour}`,
  '/cart',
  '/login',
  '/register',
  '/forgot-password',
  '/reset-password?token=abc',
  verifyLink,
  '/no-such-page',
];
const SIGNED_IN = [
  '/checkout',
  `/orders/${order.public_id}`,
  // The order page as checkout lands on it, with its thanks (said once, from a cookie checkout sets).
  `/orders/${order.public_id}?as-placed`,
  '/orders',
  '/account',
  '/account/addresses',
  `/account/addresses/${address.public_id}`,
  '/account/sessions',
  '/account/password',
  '/account/email',
  '/account/reviews',
  `/p/${product.slug}/review`,
  changeLink,
  '/logout',
];

/** Links and buttons smaller than 24 x 24 CSS px (inline links in a sentence are exempt, as WCAG allows). */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<any> } }).document;
    const small: string[] = [];
    for (const element of Array.from(doc.querySelectorAll('a[href], button, input:not([type=hidden]), select, summary'))) {
      const box = element.getBoundingClientRect();
      // Not drawn, or drawn as nothing (a visually hidden radio whose label is the target).
      if (box.width <= 1 || box.height <= 1) continue;
      const inSentence =
        element.tagName === 'A' &&
        element.parentElement &&
        /^(P|LI|SPAN|DD)$/.test(element.parentElement.tagName) &&
        element.parentElement.textContent.trim() !== element.textContent.trim();
      if (!inSentence && (box.width < 24 || box.height < 24))
        small.push(
          `${element.tagName} "${String(element.textContent).trim().slice(0, 30)}" ${Math.round(box.width)}x${Math.round(box.height)}`,
        );
    }
    return small;
  });
}

async function check(page: Page, paths: string[], phone: boolean) {
  const failures: string[] = [];
  for (const path of paths) {
    if (path.endsWith('?as-placed'))
      await page.context().addCookies([{ name: 'placed', value: order.public_id, url: `${app.baseUrl}/orders` }]);
    await page.goto(path);
    const violations = await accessibilityProblems(page);
    if (violations.length > 0) failures.push(`${path}:\n${describeViolations(violations)}`);
    if (phone) {
      const overflow = await sidewaysScroll(page);
      if (overflow > 0) failures.push(`${path}: scrolls sideways by ${overflow}px at 360 px`);
      const small = await smallTargets(page);
      if (small.length > 0) failures.push(`${path}: small tap targets: ${small.join('; ')}`);
    }
  }
  assert.equal(failures.length, 0, failures.join('\n\n'));
}

describe('storefront: accessibility and small screens', () => {
  for (const [label, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    test(`every page type meets WCAG 2.1 AA (${label})`, async (t) => {
      await inShop(
        browser,
        t,
        app,
        async (page) => {
          await check(page, ANONYMOUS, label === 'phone');
          await signInThroughShop(page, buyer.email, buyer.password);
          await check(page, SIGNED_IN, label === 'phone');
        },
        { viewport },
      );
    });
  }

  test("the focus ring stands out on the header's dark green, and a big cart leaves the shop's name whole on a phone", async (t) => {
    // A guest cart of 150 items (three lines of 50), as the storefront keeps it.
    const line = (i: number) => `${product.id}~${product.variants[i]!.id}~50`;
    await inShop(
      browser,
      t,
      app,
      async (page, context) => {
        await context.addCookies([{ name: 'cart', value: [0, 1, 2].map(line).join('.'), url: app.baseUrl }]);
        await page.goto('/');
        await page.getByRole('link', { name: 'Cart, 150 items' }).waitFor();
        assert.equal(await page.locator('header .count').innerText(), '99+');
        const logo = page.locator('header .logo');
        const cut = await logo.evaluate((el) => el.scrollWidth > el.clientWidth);
        assert.equal(cut, false, "the shop's name is cut off");

        await page.keyboard.press('Tab'); // the skip link
        await page.keyboard.press('Tab'); // the shop's name
        const style = (selector: string, property: 'outlineColor' | 'backgroundColor') =>
          page.locator(selector).evaluate((el, name) => el.ownerDocument.defaultView!.getComputedStyle(el)[name], property);
        const colours = { ring: await style(':focus', 'outlineColor'), behind: await style('header.site', 'backgroundColor') };
        const ratio = contrast(colours.ring, colours.behind);
        assert.ok(ratio >= 3, `focus ring ${colours.ring} on ${colours.behind}: ${ratio.toFixed(2)}:1, below 3:1`);
      },
      { viewport: PHONE },
    );
  });

  test("the page not found offers a search of its own, named apart from the header's", async (t) => {
    await inShop(browser, t, app, async (page) => {
      await page.goto('/no-such-page');
      await page.getByRole('search', { name: 'Search instead' }).getByRole('searchbox').waitFor();
      assert.equal(await page.getByRole('search', { name: 'Search the shop' }).count(), 1);
      assert.equal(await page.getByRole('search').count(), 2);
    });
  });

  test("the header's account and cart are finger-sized on a phone, signed in (an icon alone) or not", async (t) => {
    await inShop(
      browser,
      t,
      app,
      async (page) => {
        const sizes = () =>
          page.locator('header nav.you a').evaluateAll((links) =>
            links.map((a) => {
              const box = a.getBoundingClientRect();
              return `${a.getAttribute('aria-label') ?? a.textContent?.trim()}: ${Math.round(box.width)} x ${Math.round(box.height)}`;
            }),
          );
        await page.goto('/');
        const guest = await sizes();
        await signInThroughShop(page, buyer.email, buyer.password);
        await page.goto('/');
        await page.getByRole('banner').getByRole('link', { name: 'Account' }).waitFor();
        for (const size of [...guest, ...(await sizes())]) {
          const [width, height] = size.split(': ')[1]!.split(' x ').map(Number) as [number, number];
          assert.ok(width >= 44 && height >= 44, `${size}: under 44 x 44`);
        }
      },
      { viewport: PHONE },
    );
  });
});

/** WCAG contrast ratio of two `rgb(...)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (colour: string) => {
    const [r, g, bl] = (colour.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((n) => {
      const c = Number(n) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}
