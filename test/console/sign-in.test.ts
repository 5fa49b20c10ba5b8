import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import {
  accessibilityProblems,
  gainsFocus,
  inConsole,
  keepScreenshot,
  RESULTS_DIR,
  signInThroughUi,
  startConsole,
  TABLET,
} from '../helpers/browser.js';
import { PASSWORD, signInAs, signUp } from '../helpers/factories.js';

const { t, browser } = await startConsole();

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

  test('a session revoked from another device asks to sign in again over the screen, which then carries on', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Orders' }).click();
      await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();

      // From the test's own session of the same account: revoke the browser's.
      const sessions = (await admin.client.get('/api/v1/auth/sessions')).body.data as { public_id: string; current: boolean }[];
      const browserSession = sessions.find((s) => !s.current)!;
      assert.equal((await admin.client.delete(`/api/v1/auth/sessions/${browserSession.public_id}`)).status, 204);

      // The next screen's data is refused (401): the console asks, over that screen, for the same person to sign in again.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inventory' }).click();
      const again = page.getByRole('dialog', { name: 'Your session has ended' });
      await again.waitFor();
      assert.ok((await again.innerText()).includes(`Sign in again as ${admin.email}`), await again.innerText());
      assert.match(page.url(), /\/admin\/inventory/);
      await again.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
      await again.getByRole('button', { name: 'Sign in', exact: true }).click();
      await again.waitFor({ state: 'detached' });
      await page.getByRole('heading', { level: 1, name: 'Inventory' }).waitFor();
      await page.getByRole('table').first().waitFor();

      // Signing out on purpose offers no way back: the next sign-in lands on the dashboard.
      await page.getByRole('button', { name: /Account menu/ }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      assert.doesNotMatch(page.url(), /redirect=/);
      assert.equal(await page.getByRole('dialog').count(), 0);
    });
  });

  test('"Sign in as someone else" over an ended session goes to sign-in, and the other account lands on the same screen', async (t2) => {
    const [first, second] = [await signInAs(t, 'ADMIN'), await signInAs(t, 'ADMIN')];
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, first.email);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Orders' }).click();
      await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
      await first.client.delete('/api/v1/auth/sessions');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inventory' }).click();
      const again = page.getByRole('dialog', { name: 'Your session has ended' });
      await again.getByRole('button', { name: 'Sign in as someone else' }).click();
      await page.getByRole('heading', { name: 'Commerce console' }).waitFor();
      assert.match(page.url(), /\/admin\/sign-in\?redirect=.*inventory/);
      await page.getByRole('textbox', { name: 'Email' }).fill(second.email);
      await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Inventory' }).waitFor();
      await page.getByRole('button', { name: new RegExp(`Account menu`) }).click();
      await page.getByRole('menu').getByText(second.email).waitFor();
    });
  });

  test('a staff session that ends while a form is being edited: the edit survives signing in again, and saves', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const product = (await admin.client.post('/api/v1/admin/products', { name: 'Oak tray' })).body.data.public_id as string;
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email);
      await page.goto(`/admin/products/${product}`);
      await page.getByRole('heading', { level: 1, name: 'Oak tray' }).waitFor();
      const name = page.getByRole('textbox', { name: 'Name', exact: true });
      await name.fill('Oak tray, oiled');

      // Away for longer than a staff session stays unused (8 hours).
      t.clock.advance(8 * 3_600_000 + 120_000);
      await page.getByRole('button', { name: 'Save product' }).click();
      const again = page.getByRole('dialog', { name: 'Your session has ended' });
      await again.waitFor();
      // The keyboard is at the password (once the dialog has opened).
      // A function, not a string: the console's policy forbids evaluating strings in the page.
      await page.waitForFunction(() => (globalThis as any).document.activeElement?.getAttribute('type') === 'password', null, {
        timeout: 5_000,
      });
      assert.deepEqual(await accessibilityProblems(page), []);
      await keepScreenshot(page, path.join(RESULTS_DIR, 'sign-in-again.png'));
      // Not to be waved away: nothing under it works signed out.
      await page.keyboard.press('Escape');
      assert.equal(await again.isVisible(), true);
      assert.ok(await gainsFocus(again.getByRole('textbox', { name: 'Password' })));

      await again.getByRole('textbox', { name: 'Password' }).fill('Not-The-Password-1');
      await again.getByRole('button', { name: 'Sign in', exact: true }).click();
      await again.getByRole('alert').waitFor();
      await again.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
      await again.getByRole('button', { name: 'Sign in', exact: true }).click();
      await again.waitFor({ state: 'detached' });
      assert.equal(await name.inputValue(), 'Oak tray, oiled', 'what was typed is still there');
      // The form says why it was not saved, and what to do now.
      await page.getByRole('alert').filter({ hasText: 'Your session had ended, so this was not done.' }).waitFor();

      await page.getByRole('button', { name: 'Save product' }).click();
      await page.getByText('Product saved').waitFor();
    });
    const saved = await t.db.selectFrom('products').select('name').where('public_id', '=', product).executeTakeFirstOrThrow();
    assert.equal(saved.name, 'Oak tray, oiled');
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
        assert.ok(await gainsFocus(page.getByRole('textbox', { name: 'Email' })), 'the first field in error');

        await page.getByRole('textbox', { name: 'Email' }).fill(email);
        await page.getByRole('button', { name: 'Sign in' }).click();
        assert.ok(await gainsFocus(password), 'the password left empty');

        await password.fill('not-the-password');
        await page.getByRole('button', { name: 'Sign in' }).click();
        const wrong = page.getByRole('alert').filter({ hasText: /Email or password is incorrect/ });
        await wrong.waitFor();
        assert.ok(await gainsFocus(wrong), 'a refusal of the whole form: its alert, not the button or the page');
        // An expected refusal: no request ID, which is for support to find an unexpected failure.
        assert.doesNotMatch((await wrong.textContent()) ?? '', /request/);

        await page.getByRole('textbox', { name: 'Email' }).fill(customer.email);
        await password.fill(customer.password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        const customerRefused = page.getByRole('alert').filter({ hasText: 'no access to the console' });
        await customerRefused.waitFor();
        assert.ok(await gainsFocus(customerRefused), 'the alert again');
        // The customer's session was ended, not kept.
        await page.goto('/admin/');
        await page.getByRole('button', { name: 'Sign in' }).waitFor();
      },
      TABLET,
    );
  });
});
