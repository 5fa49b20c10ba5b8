import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import type { Page } from 'playwright-core';
import { inConsole, signInThroughUi, startConsole } from '../helpers/browser.js';
import { checkout, inventoryOf, sellableVariant, shopper, tag } from '../helpers/commerce.js';
import { signInAs } from '../helpers/factories.js';

const { t, browser } = await startConsole({ RATE_LIMIT_REGISTER: '0' });

/**
 * A write refreshes every screen it changes, not only its own: the screens below were read before
 * the write and are returned to within the cache's freshness window (15 s), through the router
 * (no page load), so they show the new figures only if the write marked them stale.
 */

/** On hand, reserved and available of the inventory list's row of `name` (after its checkbox, product and SKU). */
async function listFigures(page: Page, name: string): Promise<string[]> {
  const row = page.getByRole('table', { name: 'Inventory records' }).getByRole('row', { name: new RegExp(name) });
  return (await row.getByRole('cell').allInnerTexts()).slice(3, 6);
}

/** A stock record's figures, from its cards (each a label, then its value). */
async function recordFigures(page: Page): Promise<string[]> {
  const card = (label: string) => page.getByText(label, { exact: true }).first().locator('xpath=following-sibling::*[1]');
  return Promise.all(['On hand', 'Reserved', 'Available'].map((label) => card(label).innerText()));
}

/**
 * Waits until `read` gives `expected`: a screen may show what it had cached while it fetches again.
 * Without a refresh it never changes, and the last reading fails the test.
 */
async function shows(page: Page, read: () => Promise<unknown>, expected: unknown): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const got = await read();
    if (isDeepStrictEqual(got, expected) || Date.now() > deadline) return assert.deepEqual(got, expected);
    await page.waitForTimeout(100);
  }
}

async function openInventoryList(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inventory' }).click();
  await page.getByRole('heading', { level: 1, name: 'Inventory' }).waitFor();
  await page
    .getByRole('table', { name: 'Inventory records' })
    .getByRole('row', { name: new RegExp(name) })
    .waitFor();
}

describe('console: a write refreshes every screen it changes', () => {
  test('shipping an order from its screen shows the new stock on the stock record and the inventory list at once', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const name = `Ship ${tag()}`;
    const { variantId } = await sellableVariant(admin.client, { name, stock: 5 });
    const buyer = await shopper(t, [{ variantId, quantity: 2 }]);
    const placed = await checkout(buyer.client, buyer.addressId);
    assert.equal(placed.status, 201, placed.text);
    const orderId: string = placed.body.data.public_id;
    assert.equal((await admin.client.patch(`/api/v1/admin/orders/${orderId}`, { status: 'CONFIRMED' })).status, 200);

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email);
      await openInventoryList(page, name);
      await shows(page, () => listFigures(page, name), ['5', '2', '3']);
      await page.getByRole('link', { name, exact: true }).click();
      await page.getByRole('heading', { level: 1, name }).waitFor();
      await shows(page, () => recordFigures(page), ['5', '2', '3']);

      // From the reservation's movement to its order, and shipped there.
      await page.getByRole('table', { name: 'Stock movements' }).getByRole('link', { name: 'Order' }).click();
      await page.getByRole('heading', { level: 1, name: /^Order / }).waitFor();
      await page.getByRole('button', { name: 'Ship' }).click();
      await page.getByRole('dialog').getByRole('textbox', { name: 'Carrier' }).fill('DHL');
      await page.getByRole('dialog').getByRole('button', { name: 'Ship order' }).click();
      await page.getByText('Shipped with DHL').waitFor();

      // Back to the stock record: the two units left on hand and reserved, and the shipment is among its movements.
      await page.goBack();
      await page.getByRole('heading', { level: 1, name }).waitFor();
      await shows(page, () => recordFigures(page), ['3', '0', '3']);
      await page.getByRole('table', { name: 'Stock movements' }).getByRole('cell', { name: 'Order shipped' }).waitFor();

      await openInventoryList(page, name);
      await shows(page, () => listFigures(page, name), ['3', '0', '3']);
    });
    assert.deepEqual(await inventoryOf(t, variantId), { quantity_on_hand: 3, quantity_reserved: 0 });
  });

  test('cancelling an order shows its units available again on the inventory list and the stock record at once', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const name = `Cancel ${tag()}`;
    const { variantId } = await sellableVariant(admin.client, { name, stock: 5 });
    const buyer = await shopper(t, [{ variantId, quantity: 2 }]);
    const placed = await checkout(buyer.client, buyer.addressId);
    assert.equal(placed.status, 201, placed.text);

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email);
      await openInventoryList(page, name);
      await shows(page, () => listFigures(page, name), ['5', '2', '3']);
      await page.getByRole('link', { name, exact: true }).click();
      await page.getByRole('heading', { level: 1, name }).waitFor();
      await shows(page, () => recordFigures(page), ['5', '2', '3']);

      await page.getByRole('table', { name: 'Stock movements' }).getByRole('link', { name: 'Order' }).click();
      await page.getByRole('heading', { level: 1, name: /^Order / }).waitFor();
      await page.getByRole('button', { name: 'Cancel order' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel order' }).click();
      await page.getByText('No further steps').waitFor();

      await openInventoryList(page, name);
      await shows(page, () => listFigures(page, name), ['5', '0', '5']);
      await page.getByRole('link', { name, exact: true }).click();
      await page.getByRole('heading', { level: 1, name }).waitFor();
      await shows(page, () => recordFigures(page), ['5', '0', '5']);
      await page.getByRole('table', { name: 'Stock movements' }).getByRole('cell', { name: 'Order cancelled' }).waitFor();
    });
    assert.deepEqual(await inventoryOf(t, variantId), { quantity_on_hand: 5, quantity_reserved: 0 });
  });

  test('a stock adjustment and an order moved on their screens show in the audit log at once', async (t2) => {
    const owner = await signInAs(t, 'SUPER_ADMIN');
    const name = `Audited ${tag()}`;
    const { variantId } = await sellableVariant(owner.client, { name, stock: 5 });
    const buyer = await shopper(t, [{ variantId, quantity: 1 }]);
    const placed = await checkout(buyer.client, buyer.addressId);
    assert.equal(placed.status, 201, placed.text);
    const orderNumber: string = placed.body.data.order_number;
    const reason = `Recount ${tag()}`;

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, owner.email);
      const auditLog = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' });
      const entries = page.getByRole('table', { name: 'Audit entries' });
      const entry = (...texts: string[]) => texts.reduce((rows, text) => rows.filter({ hasText: text }), entries.getByRole('row'));
      const read = Date.now();
      await auditLog.click();
      await entries.getByRole('row').nth(1).waitFor();
      assert.equal(await entry(reason).count(), 0);
      assert.equal(await entry('order.status_change', orderNumber).count(), 0);

      // Stock adjusted on the stock record, then the order confirmed on its screen.
      await openInventoryList(page, name);
      await page.getByRole('link', { name, exact: true }).click();
      await page.getByRole('heading', { level: 1, name }).waitFor();
      await page.getByRole('textbox', { name: /^Change/ }).fill('2');
      await page.getByRole('textbox', { name: 'Reason' }).first().fill(reason);
      await page.getByRole('button', { name: 'Adjust stock' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Apply' }).click();
      await page.getByText('On hand is now 7').waitFor();
      await page.getByRole('table', { name: 'Stock movements' }).getByRole('link', { name: 'Order' }).click();
      await page.getByRole('heading', { level: 1, name: `Order ${orderNumber}` }).waitFor();
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
      await page.getByText(`Order ${orderNumber} is now confirmed`).waitFor();

      // Back in the log, read moments ago: both entries are there, without waiting out its freshness.
      await auditLog.click();
      await entry('inventory.adjust', reason).waitFor({ timeout: 10_000 });
      await entry('order.status_change', orderNumber).waitFor({ timeout: 10_000 });
      assert.ok(Date.now() - read < 15_000, 'the log was returned to within its 15 s of freshness, or this proves nothing');
    });
  });

  test('a product renamed on its screen is found under its new name by the header search at once', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const mark = tag();
    await sellableVariant(admin.client, { name: `Tin cup ${mark}`, stock: 1 });

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email);
      const search = page.getByRole('searchbox', { name: 'Search the store' });
      const products = page.getByRole('region', { name: 'Search results' }).getByRole('group', { name: 'Products' });
      await search.fill(mark);
      const searched = Date.now();
      await search.press('Enter');
      await products.getByRole('link', { name: `Tin cup ${mark}` }).click();
      await page.getByRole('heading', { level: 1, name: `Tin cup ${mark}` }).waitFor();
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`Tin mug ${mark}`);
      await page.getByRole('button', { name: 'Save product' }).click();
      await page.getByText('Product saved').waitFor();

      // The same text again, within the 10 s its answer stays fresh: the answer is asked for again.
      await search.fill(mark);
      await search.press('Enter');
      await products.getByRole('link', { name: `Tin mug ${mark}` }).waitFor({ timeout: 5_000 });
      assert.equal(await products.getByRole('link', { name: `Tin cup ${mark}` }).count(), 0);
      assert.ok(Date.now() - searched < 10_000, 'searched again within its 10 s of freshness, or this proves nothing');
    });
  });
});
