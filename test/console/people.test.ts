import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inConsole, signInThroughUi, startConsole } from '../helpers/browser.js';
import { checkout, sellableVariant, shopper } from '../helpers/commerce.js';
import { signInAs } from '../helpers/factories.js';

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
      await page.getByRole('searchbox', { name: 'Search' }).fill(buyer.email);
      await page.waitForURL(/[?&]q=/);
      await page.getByRole('link', { name: 'Ada Lovelace' }).first().click();
      await page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
      await page.getByRole('table', { name: `Orders of ${buyer.email}` }).getByRole('link', { name: number, exact: true }).waitFor();

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

  test('a SUPER_ADMIN raises a customer to ADMIN, who then appears under Staff', async (t2) => {
    const owner = await signInAs(t, 'SUPER_ADMIN');
    const buyer = await shopper(t, []);
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, owner.email);
      await page.goto(`/admin/customers/${buyer.user.public_id}`);
      await page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
      await page.getByRole('combobox', { name: 'Role' }).click();
      await page.getByRole('option', { name: 'Admin', exact: true }).click();
      await page.getByRole('button', { name: 'Change role' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Change role' }).click();
      await page.getByText('Role changed to Admin').waitFor();

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Staff' }).click();
      await page.getByRole('heading', { level: 1, name: 'Staff' }).waitFor();
      await page.getByRole('table', { name: 'Accounts' }).getByRole('cell', { name: buyer.email, exact: true }).waitFor();
    });
    const raised = await owner.client.get(`/api/v1/admin/users/${buyer.user.public_id}`);
    assert.equal(raised.body.data.role, 'ADMIN');
  });
});
