import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { gainsFocus, keepScreenshot, settled } from '../helpers/browser.js';
import { customer, DESKTOP, inShop, makeShop, ordersOf, PHONE, SHOP_RESULTS, startShop } from '../helpers/storefront.js';

/**
 * A purchase with the keyboard alone: Tab to move, Enter or Space to act, typing into fields; the
 * mouse is never used. Every element the shopper reaches must show where the focus is.
 */
const { t: app, browser } = await startShop();
const { product } = await makeShop(app);

interface Focused {
  tag: string;
  name: string;
  outline: string;
  shadow: string;
}

async function focused(page: Page): Promise<Focused | null> {
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { activeElement: any }; getComputedStyle(e: unknown): any }).document;
    const element = doc.activeElement;
    if (!element || element.tagName === 'BODY') return null;
    const style = (globalThis as unknown as { getComputedStyle(e: unknown): any }).getComputedStyle(element);
    const label = element.labels?.[0]?.textContent ?? '';
    return {
      tag: element.tagName,
      name: String(element.getAttribute('aria-label') || element.textContent || label || element.value || '')
        .trim()
        .replace(/\s+/g, ' '),
      outline: `${style.outlineStyle} ${style.outlineWidth}`,
      shadow: style.boxShadow,
    };
  });
}

/**
 * The focused element once its name matches `name` (within a second): an answer is shown, then the focus
 * is settled after the page's next update (a button held while sending lost it meanwhile).
 */
async function focusSettlesOn(page: Page, name: RegExp): Promise<Focused | null> {
  const deadline = Date.now() + 1000;
  let now = await focused(page);
  while (!name.test(now?.name ?? '') && Date.now() < deadline) {
    await page.waitForTimeout(25);
    now = await focused(page);
  }
  return now;
}

/** Presses Tab until the focused element's accessible name matches, checking it shows its focus. */
async function tabTo(page: Page, name: RegExp, limit = 80): Promise<void> {
  const seen: string[] = [];
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    if (!now) continue;
    seen.push(`${now.tag} ${now.name.slice(0, 40)}`);
    if (name.test(now.name)) {
      assert.ok(!now.outline.startsWith('none') || now.shadow !== 'none', `${now.name}: no visible focus (${now.outline}, ${now.shadow})`);
      return;
    }
  }
  throw new Error(`Tab never reached ${name}; went through:\n${seen.join('\n')}`);
}

describe('storefront: the keyboard alone', () => {
  test('find, choose, add to cart, sign in and place the order without a pointer', async (t) => {
    const buyer = await customer(app);
    await inShop(browser, t, app, async (page) => {
      await page.goto('/');
      await tabTo(page, /^Skip to content$/);
      await page.keyboard.press('Enter');
      await tabTo(page, new RegExp(`^${product.name}$`));
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: product.name }).waitFor();

      await tabTo(page, /^Sand$/);
      await page.keyboard.press('Enter');
      await page.getByText('$52.00', { exact: true }).waitFor();
      await tabTo(page, /^M$/);
      await page.keyboard.press('Enter');
      await tabTo(page, /^Quantity/);
      await page.keyboard.press('Control+A');
      await page.keyboard.type('2');
      await tabTo(page, /^Add to cart$/);
      await page.keyboard.press('Space');
      await page.getByText('Added 2 × ').waitFor();
      // The keyboard stays where it was, not back at the top of the page.
      assert.equal((await focusSettlesOn(page, /^Add to cart$/))?.name, 'Add to cart', 'focus is back on the button');
      await tabTo(page, /^View cart and check out$/);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Your cart' }).waitFor();

      await tabTo(page, /^Check out$/);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      await tabTo(page, /^Email$/);
      await page.keyboard.type(buyer.email);
      await tabTo(page, /^Password$/);
      await page.keyboard.type(buyer.password);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
      await tabTo(page, /^Place order$/);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Thank you! We have your order.' }).waitFor();
    });
    const orders = await ordersOf(app, buyer.email);
    assert.equal(orders.length, 1);
    assert.equal(orders[0]!.total, '114.00', '2 x 52.00 and flat shipping');
  });
  test('a refused form puts the keyboard on its first field in error', async (t) => {
    await inShop(browser, t, app, async (page) => {
      await page.goto('/register');
      await page.getByLabel('First name').fill('Ada');
      await page.getByLabel('Last name').fill('Lovelace');
      await page.getByLabel('Email').fill(`ada-${Date.now()}@example.com`);
      await page.getByLabel('Phone (optional)').fill('call me');
      // Sent from the password field; the field the server refused is the phone.
      await page.getByLabel('Password', { exact: true }).fill('Correct-Horse-9');
      await page.getByLabel('Password', { exact: true }).press('Enter');
      await page.getByRole('alert').first().waitFor();
      const active = await page.evaluate(() => {
        const element = (globalThis as any).document.activeElement;
        return { name: element.getAttribute('name'), invalid: element.getAttribute('aria-invalid') };
      });
      assert.deepEqual(active, { name: 'phone_number', invalid: 'true' });
    });
  });
  test('a refused sign-in puts the keyboard on the sentence saying why', async (t) => {
    const buyer = await customer(app);
    await inShop(browser, t, app, async (page) => {
      await page.goto('/login');
      await page.getByLabel('Email').fill(buyer.email);
      await page.getByLabel('Password').fill('not-the-password-1');
      await page.getByLabel('Password').press('Enter');
      const alert = page.getByRole('alert').filter({ hasText: 'That email and password do not match an account.' });
      await alert.waitFor();
      // The focus follows the alert once the page has drawn it.
      await page.waitForFunction(() => (globalThis as any).document.activeElement?.getAttribute('role') === 'alert', null, {
        timeout: 5000,
      });
    });
  });
  for (const [label, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    test(`applied filters bring the results into view (${label}), and the keyboard goes on from there`, async (t) => {
      await inShop(
        browser,
        t,
        app,
        async (page) => {
          await page.goto(`/search?q=${encodeURIComponent(product.name)}`);
          await page.getByText('Filter and sort').click();
          await page.getByLabel('In stock only').check();
          await page.getByLabel('Sort by').selectOption('-price');
          await page.getByRole('button', { name: 'Apply' }).focus();
          await page.keyboard.press('Enter');
          await page.waitForURL((url) => url.searchParams.get('in_stock') === '1' && url.hash === '#results');
          const count = page.getByRole('status').filter({ hasText: /^Showing 1–1 of 1 product$/ });
          await count.waitFor();
          if (viewport === PHONE) {
            // The open panel is above, scrolled past: the count and the first product are what the phone shows.
            await page.waitForFunction(() => {
              const top =
                (globalThis as any).document.getElementById('results').getBoundingClientRect().top / (globalThis as any).innerHeight;
              return top >= 0 && top < 1 / 3;
            });
          } else {
            // Beside the filters the results are in view already: the page stays where it was, its header shown.
            await page.waitForTimeout(200);
            assert.equal(await page.evaluate(() => (globalThis as any).scrollY), 0);
          }
          assert.match((await page.locator('.filters summary').textContent()) ?? '', /2 applied/, 'the panel says what is on');
          await keepScreenshot(page, path.join(SHOP_RESULTS, `filters-applied-${label}.png`));
          await tabTo(page, new RegExp(`^${product.name}$`), 3);
        },
        { viewport },
      );
    });
  }
  test("the cart's Update and Remove leave the keyboard on the line's button, or on what was said once the line is gone", async (t) => {
    const [first, second] = product.variants as [(typeof product.variants)[number], (typeof product.variants)[number]];
    await inShop(browser, t, app, async (page, context) => {
      const lines = [`${product.id}~${first.id}~1`, `${product.id}~${second.id}~1`];
      await context.addCookies([{ name: 'cart', value: lines.join('.'), url: app.baseUrl }]);
      await page.goto('/cart');
      // The page's script running (its requests done, drawn twice): before that, Enter sends the form without it.
      await settled(page);
      const line = page.getByRole('listitem').filter({ hasText: `${first.options.size} / ${first.options.colour}` });
      await line.getByLabel(/Quantity of/).fill('2');
      await line.getByRole('button', { name: /^Update/ }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('status').getByText('Your cart is updated.').waitFor();
      assert.match((await focusSettlesOn(page, /^Update/))?.name ?? '', /^Update/);
      await line.getByRole('button', { name: /^Remove/ }).focus();
      await page.keyboard.press('Enter');
      const removed = page.getByRole('status').filter({ hasText: 'Removed from your cart.' });
      await removed.waitFor();
      await focusSettlesOn(page, /Removed from your cart/);
      assert.ok(await gainsFocus(removed), 'focus is on what was said');
    });
  });
});
