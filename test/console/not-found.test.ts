import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inConsole, signInThroughUi, startConsole } from '../helpers/browser.js';
import { PASSWORD, signInAs } from '../helpers/factories.js';

const { t, browser } = await startConsole();

describe('console: an address that names no screen', () => {
  test('says so inside the console, with its menu and a link to the dashboard', async (t2) => {
    const admin = await signInAs(t, 'SUPER_ADMIN');
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email);
      for (const address of ['/admin/staff', '/admin/expenses', '/admin/orders/extra/segments']) {
        await page.goto(address);
        await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
        await page.getByText('No screen of the console is at this address').waitFor();
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Orders' }).waitFor();
        assert.equal(new URL(page.url()).pathname, address, 'the address stays as typed, to be corrected');
        assert.equal(await page.title(), 'Page not found · Commerce console');
      }
      await page.getByRole('link', { name: 'Go to the dashboard' }).click();
      await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    });
  });

  test('asks a visitor who is not signed in to sign in first, and then says it', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    await inConsole(browser, t2, t, async (page) => {
      await page.goto('/admin/expenses');
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await page.getByRole('textbox', { name: 'Email' }).fill(admin.email);
      await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    });
  });
});
