import assert from 'node:assert/strict';
import { text } from 'node:stream/consumers';
import { describe, test } from 'node:test';
import { inConsole, signInThroughUi, startConsole } from '../helpers/browser.js';
import { checkout, sellableVariant, shopper } from '../helpers/commerce.js';
import { signInAs } from '../helpers/factories.js';

const { t, browser } = await startConsole({ RATE_LIMIT_REGISTER: '0' });

describe('console: audit log', () => {
  test('actions are picked from the list, entries name what they are about with links, and the CSV is the whole filtered log', async (t2) => {
    const owner = await signInAs(t, 'SUPER_ADMIN');
    const { variantId } = await sellableVariant(owner.client, { name: 'Oak tray', stock: 500 });
    const sku = (await owner.client.get(`/api/v1/admin/inventory/${variantId}`)).body.data.sku as string;
    // More adjustments than one page of the log holds.
    for (let i = 0; i < 55; i++) {
      const adjusted = await owner.client.patch(`/api/v1/admin/inventory/${variantId}`, { quantity_change: 1, reason: `Count ${i}` });
      assert.equal(adjusted.status, 200, adjusted.text);
    }
    const buyer = await shopper(t, [{ variantId, quantity: 1 }]);
    const order = (await checkout(buyer.client, buyer.addressId)).body.data;
    assert.equal((await owner.client.patch(`/api/v1/admin/orders/${order.public_id}`, { status: 'CONFIRMED' })).status, 200);

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, owner.email);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
      const entries = page.getByRole('table', { name: 'Audit entries' });

      // The order's entry names it by its number, linked.
      await entries.getByRole('link', { name: order.order_number }).first().waitFor();

      // The action is picked from the list of what the log records, not typed as an internal name.
      await page.getByRole('combobox', { name: 'Action' }).click();
      await page.getByRole('option', { name: 'Inventory: adjust' }).click();
      await page.waitForURL(/action=inventory\.adjust/);
      await page.getByText('1–50 of 55').waitFor();
      const about = entries.getByRole('row').nth(1).getByRole('cell').nth(3);
      assert.match(await about.innerText(), new RegExp(`Stock of\\s+${sku}`));

      // The CSV holds every entry the filters match, not the page on screen.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download these entries as CSV' }).click(),
      ]);
      // The browser is shared over a connection: the file is streamed back rather than read from its disk.
      const csv = await text(await download.createReadStream());
      const rows = csv.trim().split(/\r?\n/);
      assert.equal(rows.length, 1 + 55, `a header and every adjustment:\n${rows.slice(0, 3).join('\n')}`);
      assert.ok(rows.slice(1).every((row) => row.includes('inventory.adjust')));

      await about.getByRole('link', { name: sku }).click();
      await page.getByRole('heading', { level: 1, name: 'Oak tray' }).waitFor();
      assert.match(page.url(), new RegExp(`/admin/inventory/${variantId}$`));
    });
  });
});
