import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { inConsole, signInThroughUi, startConsole, TABLET } from '../helpers/browser.js';
import { consoleScreens, consoleStore } from '../helpers/console-store.js';
import { layoutProblems, openScreen, pageScrollsSideways, screenshotAt, unisolatedControls } from '../helpers/layout.js';

const { t, browser } = await startConsole({ RATE_LIMIT_REGISTER: '0' });

/** The header at this width: its title, search and account menu each in view, none over another, and the menu opens to Sign out. */
async function headerProblems(page: Page): Promise<string[]> {
  const viewport = page.viewportSize()!;
  const parts = {
    title: page.getByRole('link', { name: 'Commerce console' }),
    search: page.getByRole('searchbox', { name: 'Search the store' }),
    account: page.getByRole('button', { name: /^Account menu/ }),
  };
  const boxes: Record<string, { x: number; y: number; width: number; height: number }> = {};
  const problems: string[] = [];
  for (const [name, locator] of Object.entries(parts)) {
    const box = await locator.boundingBox();
    if (!box) {
      problems.push(`header: no ${name}`);
      continue;
    }
    boxes[name] = box;
    if (box.x < 0 || box.y < 0 || box.x + box.width > viewport.width + 1 || box.y + box.height > 56 + 1)
      problems.push(`header: the ${name} is out of the header (${JSON.stringify(box)})`);
  }
  const names = Object.keys(boxes);
  for (const [i, a] of names.entries())
    for (const b of names.slice(i + 1)) {
      const [p, q] = [boxes[a]!, boxes[b]!];
      if (p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height && q.y < p.y + p.height)
        problems.push(`header: the ${a} covers the ${b}`);
    }
  await parts.account.click();
  const signOut = page.getByRole('menuitem', { name: 'Sign out' });
  const opens = await signOut.waitFor({ state: 'visible', timeout: 5_000 }).then(
    () => true,
    () => false,
  );
  if (!opens) problems.push('header: the account menu does not open to Sign out');
  await page.keyboard.press('Escape');
  return problems;
}

describe('console: user text', () => {
  test('the longest text each field takes wraps inside its card: no page scrolls sideways, no text runs over a button', async (t2) => {
    // Unbroken, so only wrapping anywhere keeps them in their cards.
    const store = await consoleStore(t, {
      product: 'W'.repeat(200),
      variant: 'V'.repeat(100),
      category: 'C'.repeat(100),
      firstName: 'F'.repeat(100),
      lastName: 'L'.repeat(100),
      recipient: 'R'.repeat(100),
      addressLine: 'A'.repeat(255),
      city: 'Y'.repeat(100),
      reviewTitle: 'T'.repeat(200),
      reviewComment: 'M'.repeat(5000),
      note: 'N'.repeat(1000),
      expense: 'E'.repeat(500),
      brand: 'B'.repeat(100),
      skuStem: 'K'.repeat(80),
      couponStem: 'Q'.repeat(50),
      addressLine2: 'D'.repeat(255),
      state: 'S'.repeat(100),
      country: 'O'.repeat(100),
      label: 'H'.repeat(50),
      phone: '9'.repeat(20),
      zip: 'Z'.repeat(20),
      reason: 'G'.repeat(255),
      endpointDescription: 'P'.repeat(500),
    });
    // The staff member signed in has the longest name too: it heads every screen.
    await t.db
      .updateTable('users')
      .set({ first_name: 'F'.repeat(100), last_name: 'L'.repeat(100) })
      .where('email', '=', store.admin.email)
      .execute();
    const screens = consoleScreens(store);
    const problems: string[] = [];
    await inConsole(
      browser,
      t2,
      t,
      async (page) => {
        await signInThroughUi(page, store.admin.email);
        problems.push(...(await headerProblems(page)));
        for (const screen of screens) {
          await openScreen(page, screen);
          for (const problem of await layoutProblems(page)) problems.push(`${screen.name}: ${problem}`);
          await screenshotAt(page, `long-text-${screen.name}`, 1280);
        }
      },
      { width: 1280, height: 900 },
    );
    // On a tablet tables may scroll inside their cards, but the page itself never scrolls sideways.
    await inConsole(
      browser,
      t2,
      t,
      async (page) => {
        await signInThroughUi(page, store.admin.email);
        for (const screen of screens) {
          await openScreen(page, screen);
          const sideways = await pageScrollsSideways(page);
          if (sideways) problems.push(`${screen.name} on a tablet: the page scrolls sideways (${sideways})`);
        }
      },
      TABLET,
    );
    assert.deepEqual(problems, []);
  });

  test('bidirectional controls already stored cannot reorder the text around them: each piece of user text is isolated', async (t2) => {
    const store = await consoleStore(t);
    const RLO = '\u202E';
    const city = `abc${RLO}txt.exe`;
    // Stored before the API refused them: written straight to the tables, as an old row would be.
    await sql`UPDATE orders SET shipping_address = jsonb_set(shipping_address, '{city}', to_jsonb(${city}::text))
              WHERE public_id = ${store.shipped.public_id}`.execute(t.db);
    await t.db.updateTable('addresses').set({ city }).where('public_id', '=', store.address.public_id).execute();
    await t.db
      .updateTable('users')
      .set({ first_name: `Ada${RLO}` })
      .where('public_id', '=', store.customer.user.public_id)
      .execute();
    await t.db
      .updateTable('products')
      .set({ name: `Mug ${RLO}gum` })
      .where('public_id', '=', store.product.public_id)
      .execute();
    await t.db
      .updateTable('order_items')
      .set({ product_name: `Mug ${RLO}gum` })
      .where('product_name', '=', store.product.name)
      .execute();
    await t.db
      .updateTable('variants')
      .set({ name: `Blue${RLO}, S` })
      .where('public_id', '=', store.variants[0]!.public_id)
      .execute();
    await t.db
      .updateTable('reviews')
      .set({ title: `Great${RLO} mug` })
      .where('public_id', '=', store.review.public_id)
      .execute();
    await t.db
      .updateTable('categories')
      .set({ name: `Mugs${RLO}` })
      .where('public_id', '=', store.category.public_id)
      .execute();
    await t.db
      .updateTable('expenses')
      .set({ description: `Courier${RLO} pickups` })
      .execute();

    const screens = consoleScreens({ ...store, product: { ...store.product, name: `Mug ${RLO}gum` } });
    const problems: string[] = [];
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, store.admin.email);
      for (const screen of screens) {
        await openScreen(page, screen);
        for (const problem of await unisolatedControls(page)) problems.push(`${screen.name}: ${problem}`);
      }

      // The address card: the state after the city still reads left to right ("Greater London", not "nodnoL retaerG").
      await page.goto(`/admin/orders/${store.shipped.public_id}`);
      const shipTo = page.locator('.mantine-Paper-root').filter({ has: page.getByRole('heading', { name: 'Ship to' }) });
      await shipTo.getByText('Greater London').waitFor();
      // The town line as the storefront and the order emails print it: City, State ZIP.
      assert.match((await shipTo.innerText()).replace(/\s+/g, ' '), /, Greater London SW1Y 4JH GB/);
      const order = await shipTo.evaluate((card) => {
        const doc = (globalThis as any).document;
        const walker = doc.createTreeWalker(card, 4);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const at = node.textContent.indexOf('Greater London');
          if (at < 0) continue;
          const range = doc.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + 1);
          const first = range.getBoundingClientRect().left;
          range.setStart(node, at + 'Greater London'.length - 1);
          range.setEnd(node, at + 'Greater London'.length);
          return { first, last: range.getBoundingClientRect().left };
        }
        return null;
      });
      assert.ok(order && order.first < order.last, `"Greater London" is drawn left to right (${JSON.stringify(order)})`);

      // The tab's title is plain text: the stored control left out, nothing invisible added that a bookmark would keep.
      await page.goto(`/admin/products/${store.product.public_id}`);
      await page.waitForFunction(() => (globalThis as any).document.title.includes('gum'));
      assert.equal(await page.title(), 'Mug gum · Commerce console');
    });
    assert.deepEqual(problems, []);
  });
});
