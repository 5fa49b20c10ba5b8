import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { inConsole, signInThroughUi, startConsole, TABLET } from '../helpers/browser.js';
import { PASSWORD, signInAs, signUp } from '../helpers/factories.js';

const { t, browser } = await startConsole();

const focused = (locator: Locator) => locator.evaluate((element) => element === (globalThis as any).document.activeElement);

describe('console: signing in', () => {
  test('an ADMIN lands on the dashboard and sees no SUPER_ADMIN navigation', async (t2) => {
    const { email } = await signInAs(t, 'ADMIN');
    await inConsole(browser, t2, t, async (page) => {
      const refused: string[] = [];
      page.on('response', (response) => void (response.status() >= 400 && refused.push(`${response.status()} ${response.url()}`)));
      await page.goto('/admin/orders?status=PLACED');
      // Not signed in: sent to sign-in, and back to where they were going afterwards.
      await page.getByRole('heading', { name: 'Commerce console' }).waitFor();
      // Finding out nobody is signed in refuses nothing (the browser would log it as an error).
      assert.deepEqual(refused, []);
      assert.match(page.url(), /\/admin\/sign-in\?redirect=/);
      await page.getByRole('textbox', { name: 'Email' }).fill(email);
      await page.getByRole('textbox', { name: 'Password' }).fill('Correct-Horse-9');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
      assert.match(page.url(), /\/admin\/orders\?status=PLACED$/);

      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Dashboard' }).click();
      await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
      assert.equal(await nav.getByRole('link', { name: 'Money' }).count(), 0);
      assert.equal(await nav.getByRole('link', { name: 'Audit log' }).count(), 0);
      assert.equal(await nav.getByRole('link', { name: 'Staff' }).count(), 0);
    });
  });

  test('a SUPER_ADMIN sees the administration section', async (t2) => {
    const { email } = await signInAs(t, 'SUPER_ADMIN');
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, email);
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Dashboard' }).waitFor();
      for (const name of ['Money', 'Staff', 'Audit log', 'Customers']) await nav.getByRole('link', { name }).waitFor();
      await page.getByRole('button', { name: /Account menu/ }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      // The session is gone on the server too: the console sends them back to sign-in.
      await page.goto('/admin/');
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
    });
  });

  test('a session revoked from another device sends the person to sign in, and back to the screen after', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Orders' }).click();
      await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();

      // From the test's own session of the same account: revoke the browser's.
      const sessions = (await admin.client.get('/api/v1/auth/sessions')).body.data as { public_id: string; current: boolean }[];
      const browserSession = sessions.find((s) => !s.current)!;
      assert.equal((await admin.client.delete(`/api/v1/auth/sessions/${browserSession.public_id}`)).status, 204);

      // The next screen's data is refused (401): the console asks for the session again and sends them to sign in.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inventory' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      assert.match(page.url(), /\/admin\/sign-in\?redirect=.*inventory/);
      await page.getByRole('textbox', { name: 'Email' }).fill(admin.email);
      await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Inventory' }).waitFor();

      // Signing out on purpose offers no way back: the next sign-in lands on the dashboard.
      await page.getByRole('button', { name: /Account menu/ }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      assert.doesNotMatch(page.url(), /redirect=/);
    });
  });

  test('a wrong password and a customer account are refused with a message, which focus moves to', async (t2) => {
    const customer = await signUp(t);
    const { email } = await signInAs(t, 'ADMIN');
    await inConsole(
      browser,
      t2,
      t,
      async (page) => {
        await page.goto('/admin/sign-in');
        const password = page.getByRole('textbox', { name: 'Password' });
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByText('Enter your password').waitFor();
        assert.ok(await focused(page.getByRole('textbox', { name: 'Email' })), 'the first field in error');

        await page.getByRole('textbox', { name: 'Email' }).fill(email);
        await page.getByRole('button', { name: 'Sign in' }).click();
        assert.ok(await focused(password), 'the password left empty');

        await password.fill('not-the-password');
        await page.getByRole('button', { name: 'Sign in' }).click();
        const wrong = page.getByRole('alert').filter({ hasText: /Email or password is incorrect/ });
        await wrong.waitFor();
        assert.ok(await focused(wrong), 'a refusal of the whole form: its alert, not the button or the page');
        // An expected refusal: no request ID, which is for support to find an unexpected failure.
        assert.doesNotMatch((await wrong.textContent()) ?? '', /request/);

        await page.getByRole('textbox', { name: 'Email' }).fill(customer.email);
        await password.fill(customer.password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        const customerRefused = page.getByRole('alert').filter({ hasText: 'no access to the console' });
        await customerRefused.waitFor();
        assert.ok(await focused(customerRefused), 'the alert again');
        // The customer's session was ended, not kept.
        await page.goto('/admin/');
        await page.getByRole('button', { name: 'Sign in' }).waitFor();
      },
      TABLET,
    );
  });
});
