import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { inConsole, signInThroughUi, startConsole } from '../helpers/browser.js';
import { PASSWORD, signInAs } from '../helpers/factories.js';

const { t, browser } = await startConsole();

/** Picks an action in the audit log's filter, from the list of what the log records. */
async function pickAction(page: Page, label: string) {
  await page.getByRole('combobox', { name: 'Action' }).fill(label);
  await page.getByRole('option', { name: label, exact: true }).click();
}

describe('console: your account and the audit log', () => {
  test('signing out another session ends it; a wrong current password is shown next to its field; a change works', async (t2) => {
    const staff = await signInAs(t, 'ADMIN'); // staff.client is "another device"
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, staff.email);
      await page.getByRole('button', { name: /Account menu/ }).click();
      await page.getByRole('menuitem', { name: 'Your account' }).click();
      await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
      const sessions = page.getByRole('table', { name: 'Your sessions' });
      await sessions.getByText('This session').waitFor();
      await sessions.getByRole('button', { name: /^Sign out the session/ }).click();
      await page.getByText('Session signed out').waitFor();
      assert.equal((await staff.client.get('/api/v1/users/me')).status, 401, 'the other device is signed out');
      assert.equal(await sessions.getByRole('button', { name: /^Sign out the session/ }).count(), 0);

      await page.getByLabel('Current password').fill('not-my-password');
      await page.getByLabel(/^New password/).fill('Better-Horse-10');
      await page.getByLabel('Repeat the new password').fill('Better-Horse-10');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('This is not your current password').waitFor();

      await page.getByLabel('Current password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Password changed').waitFor();
    });
    const login = await t.client().post('/api/v1/auth/login', { email: staff.email, password: 'Better-Horse-10' });
    assert.equal(login.status, 200, login.text);
  });

  test('a SUPER_ADMIN filters the audit log by action and date; an ADMIN has no link to it', async (t2) => {
    const owner = await signInAs(t, 'SUPER_ADMIN');
    const created = await owner.client.post('/api/v1/admin/expenses', {
      description: 'Audit me',
      category: 'OTHER',
      amount: '9.99',
      spent_at: '2026-01-05',
    });
    assert.equal(created.status, 201, created.text);
    const changed = await owner.client.patch(`/api/v1/admin/expenses/${created.body.data.public_id}`, { amount: '12.50' });
    assert.equal(changed.status, 200, changed.text);
    assert.equal((await owner.client.delete(`/api/v1/admin/expenses/${created.body.data.public_id}`)).status, 204);
    const category = await owner.client.post('/api/v1/admin/categories', { name: 'Audited shelf' });
    const product = await owner.client.post('/api/v1/admin/products', { name: 'Audited lamp' });
    const linked = await owner.client.request(
      'PUT',
      `/api/v1/admin/categories/${category.body.data.public_id}/products/${product.body.data.public_id}`,
    );
    assert.equal(linked.status, 204, linked.text);
    const admin = await signInAs(t, 'ADMIN');
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email);
      assert.equal(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).count(), 0);
      await page.getByRole('button', { name: /Account menu/ }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();

      await signInThroughUi(page, owner.email);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
      const table = page.getByRole('table', { name: 'Audit entries' });
      await table.getByText('auth.login', { exact: true }).first().waitFor();
      await pickAction(page, 'Expense: create');
      await page.waitForURL(/action=expense\.create/);
      await table.getByText('auth.login', { exact: true }).first().waitFor({ state: 'detached' });
      assert.equal(await table.getByRole('row').count(), 2, 'the header and the one entry');
      // What changed, readable: a creation lists the values set, an update each changed field's before and after.
      const entry = table.getByRole('row').nth(1);
      await entry.getByText('description Audit me', { exact: true }).waitFor();
      await entry.getByText('amount 9.99', { exact: true }).waitFor();
      await pickAction(page, 'Expense: update');
      await page.waitForURL(/action=expense\.update/);
      await table.getByText('amount 9.99 → 12.50', { exact: true }).waitFor();
      // The About column names the expense by its description; the Changes column leaves it out, unchanged.
      const changes = table.getByRole('row').nth(1).getByRole('cell').nth(4);
      assert.equal(await changes.getByText('Audit me').count(), 0, 'unchanged fields are left out');
      // A deletion shows what was deleted; a link names the product it is about, though that did not change.
      await pickAction(page, 'Expense: delete');
      await page.waitForURL(/action=expense\.delete/);
      await table.getByText('Deleted', { exact: true }).waitFor();
      await table.getByText('amount 12.50', { exact: true }).waitFor();
      await pickAction(page, 'Category: link product');
      await page.waitForURL(/action=category\.link_product/);
      await table.getByText(`product_public_id ${product.body.data.public_id}`, { exact: true }).waitFor();
      await table.getByText('linked false → true', { exact: true }).waitFor();
    });
  });
});
