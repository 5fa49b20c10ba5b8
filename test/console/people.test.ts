import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { inConsole, signInThroughUi, startConsole } from '../helpers/browser.js';
import { checkout, sellableVariant, shopper } from '../helpers/commerce.js';
import { signInAs, signUp, verifyEmail } from '../helpers/factories.js';

const { t, browser } = await startConsole({ RATE_LIMIT_REGISTER: '0' });

describe('console: customers and staff', () => {
  test('an ADMIN finds a customer, sees their orders, suspends and reactivates them', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const { variantId } = await sellableVariant(admin.client, { stock: 5 });
    const buyer = await shopper(t, [{ variantId, quantity: 1 }]);
    const number: string = (await checkout(buyer.client, buyer.addressId)).body.data.order_number;

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Customers' }).click();
      await page.getByRole('searchbox', { name: 'Search', exact: true }).fill(buyer.email);
      await page.waitForURL(/[?&]q=/);
      await page.getByRole('link', { name: 'Ada Lovelace' }).first().click();
      await page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
      await page
        .getByRole('table', { name: `Orders of ${buyer.email}` })
        .getByRole('link', { name: number, exact: true })
        .waitFor();

      await page.getByRole('button', { name: 'Suspend' }).click();
      await page.getByRole('dialog').getByText('Every session of the account ends').waitFor();
      await page.getByRole('dialog').getByRole('button', { name: 'Suspend' }).click();
      await page.getByRole('button', { name: 'Reactivate' }).waitFor();
      assert.equal((await buyer.client.get('/api/v1/users/me')).status, 401, "the customer's session ended");
      const suspended = await admin.client.get(`/api/v1/admin/users/${buyer.user.public_id}`);
      assert.equal(suspended.body.data.status, 'SUSPENDED');

      await page.getByRole('button', { name: 'Reactivate' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Reactivate' }).click();
      await page.getByRole('button', { name: 'Suspend' }).waitFor();
      assert.equal((await admin.client.get(`/api/v1/admin/users/${buyer.user.public_id}`)).body.data.status, 'ACTIVE');
      // An ADMIN cannot change roles: no control for it.
      assert.equal(await page.getByRole('button', { name: 'Change role' }).count(), 0);
    });
  });

  test('accounts sort on the server by name and email from the column headers, kept in the URL', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const tag = `srt${Date.now().toString(36)}`;
    await signUp(t, { first_name: 'Zoe', last_name: `${tag}Adams`, email: `b-${tag}@example.test` });
    await signUp(t, { first_name: 'Bob', last_name: `${tag}Baker`, email: `a-${tag}@example.test` });

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email, `/admin/customers?q=${tag}`);
      const table = page.getByRole('table', { name: 'Accounts' });
      const firstName = () => table.getByRole('row').nth(1).getByRole('link').first();
      await firstName().filter({ hasText: 'Bob' }).waitFor(); // newest first

      await table.getByRole('button', { name: 'Name' }).click();
      await page.waitForURL(/sort=name/);
      await firstName().filter({ hasText: 'Zoe' }).waitFor();
      assert.equal(await table.getByRole('columnheader', { name: 'Name', exact: true }).getAttribute('aria-sort'), 'ascending');

      await table.getByRole('button', { name: 'Email' }).click();
      await page.waitForURL(/sort=email/);
      await firstName().filter({ hasText: 'Bob' }).waitFor();
      await table.getByRole('button', { name: 'Email' }).click();
      await page.waitForURL(/sort=-email/);
      await firstName().filter({ hasText: 'Zoe' }).waitFor();

      // A bookmarked sort opens as it was.
      await page.reload();
      await firstName().filter({ hasText: 'Zoe' }).waitFor();
      assert.equal(await table.getByRole('columnheader', { name: 'Email', exact: true }).getAttribute('aria-sort'), 'descending');
    });
  });

  test('a SUPER_ADMIN raises a customer to ADMIN, who then appears under Staff', async (t2) => {
    const owner = await signInAs(t, 'SUPER_ADMIN');
    const buyer = await shopper(t, []);
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, owner.email, `/admin/customers/${buyer.user.public_id}`);
      await page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
      // Not while the address is unproven: the panel says why once, and offers no change the server would refuse.
      await page.getByText('A staff role waits until this account verifies its email address').waitFor();
      const roleField = page.getByRole('textbox', { name: 'Role' }).or(page.getByRole('combobox', { name: 'Role' }));
      assert.equal(await roleField.isDisabled(), true);
      assert.equal(await page.getByRole('button', { name: 'Change role' }).isDisabled(), true);
      assert.equal((await owner.client.get(`/api/v1/admin/users/${buyer.user.public_id}`)).body.data.role, 'CUSTOMER');

      await verifyEmail(t, buyer.email);
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
      assert.equal(await page.getByText('A staff role waits until').count(), 0);
      await page.getByRole('combobox', { name: 'Role' }).click();
      await page.getByRole('option', { name: 'Admin', exact: true }).click();
      await page.getByRole('button', { name: 'Change role' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Change role' }).click();
      await page.getByText('Role changed to Admin').waitFor();

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Staff' }).click();
      await page.getByRole('heading', { level: 1, name: 'Staff' }).waitFor();
      await page.getByRole('table', { name: 'Accounts' }).getByRole('cell', { name: buyer.email, exact: true }).waitFor();
      // Staff is both staff roles: the super admin looking at it is on it too, and the filter says so.
      await page.getByRole('table', { name: 'Accounts' }).getByRole('cell', { name: owner.email, exact: true }).waitFor();
      assert.equal(await page.getByRole('combobox', { name: 'Role' }).inputValue(), 'Staff (admins and super admins)');
      assert.equal(new URL(page.url()).searchParams.get('role'), 'STAFF');
      // One entry of the menu is the current page: Staff, not Customers as well.
      const current = page.getByRole('navigation', { name: 'Main' }).locator('[aria-current="page"]');
      assert.deepEqual(await current.allInnerTexts(), ['Staff']);
    });
    const raised = await owner.client.get(`/api/v1/admin/users/${buyer.user.public_id}`);
    assert.equal(raised.body.data.role, 'ADMIN');
  });
  test('Suspend follows the server: an ADMIN only on customers, nobody on a SUPER_ADMIN, a SUPER_ADMIN also on admins', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const otherAdmin = await signInAs(t, 'ADMIN');
    const owner = await signInAs(t, 'SUPER_ADMIN');
    const otherOwner = await signInAs(t, 'SUPER_ADMIN');
    const open = async (page: Page, user: { public_id: string }, name: string) => {
      await page.goto(`/admin/customers/${user.public_id}`);
      await page.getByRole('heading', { level: 1, name }).waitFor();
    };
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email);
      for (const [user, name] of [
        [otherAdmin.user, 'Staff ADMIN'],
        [owner.user, 'Staff SUPER_ADMIN'],
      ] as const) {
        await open(page, user, name);
        await page.getByText('Admins can suspend or reactivate customer accounts only').waitFor();
        assert.equal(
          await page.getByRole('button', { name: /^(Suspend|Reactivate)$/ }).count(),
          0,
          `no Suspend for an ADMIN on ${user.role}`,
        );
        // The server refuses what the screen does not offer.
        assert.equal((await admin.client.post(`/api/v1/admin/users/${user.public_id}/suspend`, {})).status, 403);
      }
      await open(page, admin.user, 'Staff ADMIN');
      await page.getByText('This is your own account').waitFor();
      assert.equal(await page.getByRole('button', { name: 'Suspend' }).count(), 0);

      await page.getByRole('button', { name: /Account menu/ }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await signInThroughUi(page, owner.email);
      await open(page, otherOwner.user, 'Staff SUPER_ADMIN');
      await page.getByText('A super admin cannot be suspended or reactivated: change the role first').waitFor();
      assert.equal(await page.getByRole('button', { name: 'Suspend' }).count(), 0);
      assert.equal((await owner.client.post(`/api/v1/admin/users/${otherOwner.user.public_id}/suspend`, {})).status, 403);

      await open(page, otherAdmin.user, 'Staff ADMIN');
      await page.getByRole('button', { name: 'Suspend' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Suspend' }).click();
      await page.getByRole('button', { name: 'Reactivate' }).waitFor();
    });
    assert.equal((await owner.client.get(`/api/v1/admin/users/${otherAdmin.user.public_id}`)).body.data.status, 'SUSPENDED');
  });
});
