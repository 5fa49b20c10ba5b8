import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { afterLayout, inConsole, openInApp, signInThroughUi, startConsole } from '../helpers/browser.js';
import { consoleScreens, consoleStore } from '../helpers/console-store.js';
import { signInAs } from '../helpers/factories.js';
import { DESKTOP_WIDTHS, layoutProblems, openScreen, pageScrollsSideways, screenshotAt } from '../helpers/layout.js';

const { t, browser } = await startConsole({ RATE_LIMIT_REGISTER: '0' });

/** A common phone held upright (an iPhone 12 to 15). */
const PHONE = { width: 390, height: 844 };

describe('console: layout on desktop screens', () => {
  test('at 1280, 1440 and 1920 px every column of every table is in view, with a screenshot of each screen', async (t2) => {
    const store = await consoleStore(t);
    const problems: string[] = [];
    // Each screen is loaded once and looked at in each width (the window resized, as a person would): a load
    // per width tripled the time for no more coverage, since the console lays out by CSS and resize observers.
    await inConsole(
      browser,
      t2,
      t,
      async (page) => {
        await signInThroughUi(page, store.admin.email);
        for (const screen of consoleScreens(store)) {
          await page.setViewportSize({ width: DESKTOP_WIDTHS[0], height: 900 });
          await openScreen(page, screen);
          for (const width of DESKTOP_WIDTHS) {
            await page.setViewportSize({ width, height: 900 });
            await afterLayout(page);
            for (const problem of await layoutProblems(page)) problems.push(`${screen.name} at ${width} px: ${problem}`);
            await screenshotAt(page, `layout-${screen.name}`, width);
          }
        }
      },
      { width: DESKTOP_WIDTHS[0], height: 900 },
    );
    assert.deepEqual(problems, []);
  });

  test('on a phone (390 px) no screen scrolls sideways: a table may scroll inside its card, the page never does', async (t2) => {
    const store = await consoleStore(t);
    const problems: string[] = [];
    await inConsole(
      browser,
      t2,
      t,
      async (page) => {
        await signInThroughUi(page, store.admin.email);
        for (const screen of consoleScreens(store)) {
          await openScreen(page, screen);
          const sideways = await pageScrollsSideways(page);
          if (sideways) problems.push(`${screen.name}: the page scrolls sideways (${sideways})`);
          await screenshotAt(page, `layout-${screen.name}`, PHONE.width);
        }
        // The order's items keep the width they need in their frame: a SKU is not broken over lines.
        await openInApp(page, consoleScreens(store).find((screen) => screen.name === 'order')!.path);
        for (const { sku } of store.variants.slice(0, 2)) {
          const cell = page.getByRole('cell', { name: sku, exact: true }).locator('bdi');
          const lines = await cell.evaluate((text) => text.getClientRects().length);
          if (lines !== 1) problems.push(`order: the SKU ${sku} is broken over ${lines} lines`);
        }
      },
      PHONE,
    );
    assert.deepEqual(problems, []);
  });

  test('on a phone the header stays one row: the account menu sits in it, with a name for screen readers', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    await inConsole(
      browser,
      t2,
      t,
      async (page) => {
        await signInThroughUi(page, admin.email);
        const header = await page.locator('header').first().boundingBox();
        const menu = page.getByRole('button', { name: /^Account menu:/ });
        const box = await menu.boundingBox();
        assert.ok(header && box, 'header and account menu shown');
        assert.ok(
          box.y >= header.y && box.y + box.height <= header.y + header.height,
          `menu at ${JSON.stringify(box)}, header ${JSON.stringify(header)}`,
        );
        assert.ok(box.x + box.width <= 360, 'and within the screen');
        assert.match((await menu.textContent()) ?? '', /Staff ADMIN/);
      },
      { width: 360, height: 740 },
    );
  });
});
