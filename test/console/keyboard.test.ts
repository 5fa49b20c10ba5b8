import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { inConsole, signInThroughUi, startConsole, TABLET } from '../helpers/browser.js';
import { checkout, sellableVariant, shopper } from '../helpers/commerce.js';
import { PASSWORD, signInAs } from '../helpers/factories.js';

const { t, browser } = await startConsole({ RATE_LIMIT_REGISTER: '0' });

/** What has focus, as a person would name it: role or tag, and its accessible name or text. */
async function focused(page: Page): Promise<string> {
  const element = page.locator(':focus');
  if ((await element.count()) === 0) return 'nothing';
  return element.evaluate((el) => {
    const input = el as unknown as { labels?: ArrayLike<{ textContent: string | null }> | null };
    const name = el.getAttribute('aria-label') ?? input.labels?.[0]?.textContent ?? el.textContent ?? '';
    return `${el.getAttribute('role') ?? el.tagName.toLowerCase()}: ${name.trim()}`;
  });
}

/** Whether the page scrolls sideways (content wider than the window). */
const overflowsSideways = (page: Page) => page.locator('html').evaluate((html) => html.scrollWidth > html.clientWidth);

describe('console: keyboard and tablet', () => {
  test('keyboard only: sign in, skip to content, arrive on a screen at its heading, filter without losing the field, a dialog keeps and returns focus', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const { variantId } = await sellableVariant(admin.client, { name: 'Slate coaster' });
    const buyer = await shopper(t, [{ variantId, quantity: 1 }]);
    const placed = await checkout(buyer.client, buyer.addressId);
    assert.equal(placed.status, 201, placed.text);

    await inConsole(browser, t2, t, async (page) => {
      await page.goto('/admin/sign-in');
      await page.getByRole('textbox', { name: 'Email' }).waitFor();
      assert.equal(await focused(page), 'input: Email *', 'the email field is ready for typing');
      await page.keyboard.type(admin.email);
      await page.keyboard.press('Tab');
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
      assert.equal(await focused(page), 'h1: Dashboard', 'reading starts at the new screen');

      // On a page load the first Tab stop is the skip link; it jumps past the header and navigation.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
      assert.equal(await focused(page), 'nothing', 'a page load leaves focus to the browser');
      await page.keyboard.press('Tab');
      assert.equal(await focused(page), 'a: Skip to content');
      await page.getByRole('link', { name: 'Skip to content' }).waitFor(); // visible while focused
      await page.keyboard.press('Enter');
      assert.equal(await focused(page), 'h1: Dashboard');
      // Also when the router tidies the URL it loaded with (an unknown filter value dropped).
      await page.goto('/admin/orders?status=bogus');
      await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
      assert.equal(await focused(page), 'nothing', 'a tidied URL is no move');
      await page.goto('/admin/');
      await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

      // A navigation entry chosen with the keyboard: focus lands on the new screen's heading.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Orders' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
      assert.equal(await focused(page), 'h1: Orders');

      // Typing a filter updates the URL and the list, and the field keeps focus.
      await page.getByRole('searchbox', { name: 'Search', exact: true }).focus();
      await page.keyboard.type(placed.body.data.order_number);
      await page.waitForURL(/[?&]q=/);
      await page.getByText('1–1 of 1').waitFor();
      assert.equal(await focused(page), 'input: Search');

      // Into the order with Enter; a transition's dialog takes focus, Escape closes it and gives focus back.
      await page.getByRole('link', { name: placed.body.data.order_number, exact: true }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: `Order ${placed.body.data.order_number}` }).waitFor();
      assert.equal(await focused(page), `h1: Order ${placed.body.data.order_number}`);
      await page.getByRole('button', { name: 'Confirm' }).focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await dialog.locator(':focus').waitFor(); // focus moved into the dialog
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      // Focus is back on the button that opened it.
      await page.getByRole('button', { name: 'Confirm' }).and(page.locator(':focus')).waitFor();
    });
  });

  test('a screen that renders late leaves focus where the person moved while it loaded', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const { variantId } = await sellableVariant(admin.client, { name: 'Late coaster' });
    const buyer = await shopper(t, [{ variantId, quantity: 1 }]);
    const placed = await checkout(buyer.client, buyer.addressId);
    assert.equal(placed.status, 201, placed.text);
    const { order_number: number, public_id: id } = placed.body.data;

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email);
      // The order's answer is held while a test step holds it.
      let gate = Promise.resolve();
      await page.route(`**/api/v1/admin/orders/${id}`, async (route) => {
        await gate;
        await route.continue();
      });
      /** Opens the order from the list with the keyboard, its answer held until the returned function is called. */
      const openOrderHeld = async (): Promise<() => void> => {
        let answer!: () => void;
        gate = new Promise<void>((resolve) => (answer = resolve));
        await page.goto(`/admin/orders?q=${number}`);
        await page.getByRole('link', { name: number, exact: true }).focus();
        await page.keyboard.press('Enter');
        await page.waitForURL(new RegExp(`/admin/orders/${id}$`));
        return answer;
      };
      const heading = page.getByRole('heading', { level: 1, name: `Order ${number}` });

      let answer = await openOrderHeld();
      // While it loads, the person goes back to the header (the link they chose is gone with the list).
      const menu = page.getByRole('button', { name: /^Account menu:/ });
      await menu.focus();
      answer();
      await heading.waitFor();
      await page.evaluate('new Promise((resolve) => requestAnimationFrame(resolve))'); // the screen's effects have run
      assert.equal(await menu.and(page.locator(':focus')).count(), 1, `focus stayed in the header (now ${await focused(page)})`);

      // Left where it was chosen (nowhere, the link gone), a late screen still takes focus to its heading.
      answer = await openOrderHeld();
      answer();
      await heading.and(page.locator(':focus')).waitFor();
    });
  });

  test('on a tablet the navigation folds behind a button that works from the keyboard, and no screen scrolls sideways', async (t2) => {
    const admin = await signInAs(t, 'SUPER_ADMIN'); // every screen, Money and the audit log included
    await inConsole(
      browser,
      t2,
      t,
      async (page) => {
        await signInThroughUi(page, admin.email);
        const navigation = page.getByRole('navigation', { name: 'Main' });
        assert.equal(await navigation.getByRole('link', { name: 'Inventory' }).isVisible(), false, 'folded away');
        // Folded links are out of the Tab order: Tab from the header's last control goes past the navigation into the screen.
        await page.getByRole('button', { name: /^Account menu:/ }).focus();
        await page.keyboard.press('Tab');
        assert.equal(await navigation.locator(':focus').count(), 0, 'focus skipped the folded navigation');
        assert.equal(await page.getByRole('main').locator(':focus').count(), 1, 'and landed in the screen');
        assert.equal(await overflowsSideways(page), false, 'dashboard');

        await page.getByRole('button', { name: 'Open navigation' }).focus();
        await page.keyboard.press('Enter');
        await navigation.getByRole('link', { name: 'Inventory' }).waitFor({ state: 'visible' });
        await navigation.getByRole('link', { name: 'Inventory' }).focus();
        await page.keyboard.press('Enter');
        await page.getByRole('heading', { level: 1, name: 'Inventory' }).waitFor();
        await navigation.getByRole('link', { name: 'Inventory' }).waitFor({ state: 'hidden' });
        assert.equal(await focused(page), 'h1: Inventory', 'the folded navigation hands focus to the screen');

        for (const [path, heading] of [
          ['/admin/inventory', 'Inventory'],
          ['/admin/orders', 'Orders'],
          ['/admin/products', 'Products'],
          ['/admin/customers', 'Customers'],
          ['/admin/money', 'Money'],
          ['/admin/audit', 'Audit log'],
        ] as const) {
          await page.goto(path);
          await page.getByRole('heading', { level: 1, name: heading }).waitFor();
          assert.equal(await overflowsSideways(page), false, `${path} scrolls sideways`);
        }
      },
      TABLET,
    );
  });
});
