import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inConsole, LAPTOP, signInThroughUi, startConsole } from '../helpers/browser.js';
import { signInAs } from '../helpers/factories.js';

const { t, browser } = await startConsole();

/** What the browser logs while the server is cut off: the refused requests, and the screen whose code did not arrive. */
const CUT_OFF = /ERR_CONNECTION_REFUSED|Failed to fetch|dynamically imported module|could not be loaded/;

/** Everything the page asks of the service fails, as when the server is down; returns how to bring it back. */
async function serverDown(page: import('playwright-core').Page, only: RegExp = /.*/) {
  const handler = (route: import('playwright-core').Route) => route.abort('connectionrefused');
  const matcher = (url: URL) => url.origin === t.baseUrl && only.test(url.pathname);
  await page.route(matcher, handler);
  return () => page.unroute(matcher, handler);
}

describe('console: the server goes away', () => {
  test('a screen not yet visited says in the app that it cannot load, and opens by itself once the server is back', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    await inConsole(
      browser,
      t2,
      t,
      async (page) => {
        await signInThroughUi(page, admin.email);
        const serverBack = await serverDown(page);
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Coupons' }).click();
        await page.getByRole('heading', { level: 1, name: 'This screen could not be loaded' }).waitFor();
        await page.getByRole('alert').getByText('The service cannot be reached').waitFor();
        await page.getByRole('button', { name: 'Try again' }).waitFor();
        // Still the console, on the screen asked for: not the browser's error page.
        assert.equal(new URL(page.url()).pathname, '/admin/coupons');
        await page.getByRole('navigation', { name: 'Main' }).waitFor();

        await serverBack();
        await page.getByRole('heading', { level: 1, name: 'Coupons' }).waitFor({ timeout: 20_000 });
      },
      LAPTOP,
      undefined,
      CUT_OFF,
    );
  });

  test('a screen whose data cannot be read says so and fills in by itself once the server answers', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    await inConsole(
      browser,
      t2,
      t,
      async (page) => {
        await signInThroughUi(page, admin.email);
        const serverBack = await serverDown(page, /^\/api\//);
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inventory' }).click();
        await page.getByRole('alert').getByText('The service cannot be reached').waitFor({ timeout: 20_000 });
        await page.getByRole('alert').getByText('Trying again by itself.').waitFor();
        await serverBack();
        await page.getByRole('table', { name: 'Inventory records' }).waitFor({ timeout: 20_000 });
      },
      LAPTOP,
      undefined,
      CUT_OFF,
    );
  });
});
