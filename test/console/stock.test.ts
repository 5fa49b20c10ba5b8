import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inConsole, signInThroughUi, startConsole } from '../helpers/browser.js';
import { checkout, inventoryOf, sellableVariant, shopper } from '../helpers/commerce.js';
import { signInAs } from '../helpers/factories.js';

const { t, browser } = await startConsole({ RATE_LIMIT_REGISTER: '0' });

describe('console: inventory', () => {
  test('from the dashboard to the low-stock view, then an adjustment with a reason; a release held by an order is refused', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const low = await sellableVariant(admin.client, { name: 'Linen apron', stock: 3 });
    assert.equal((await admin.client.patch(`/api/v1/admin/inventory/${low.variantId}`, { reorder_level: 5 })).status, 200);
    const plenty = await sellableVariant(admin.client, { name: 'Cotton towel', stock: 100 });
    const buyer = await shopper(t, [{ variantId: low.variantId, quantity: 1 }]);
    assert.equal((await checkout(buyer.client, buyer.addressId)).status, 201);

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email);
      await page.getByRole('link', { name: 'Low-stock list' }).click();
      await page.getByRole('heading', { level: 1, name: 'Low stock' }).waitFor();
      const table = page.getByRole('table', { name: 'Inventory records' });
      await table.getByRole('link', { name: 'Linen apron' }).waitFor();
      assert.equal(await table.getByRole('link', { name: 'Cotton towel' }).count(), 0, 'only low stock');
      assert.match(page.url(), /stock_status=LOW_STOCK/);

      await table.getByRole('link', { name: 'Linen apron' }).click();
      await page.getByRole('heading', { level: 1, name: 'Linen apron' }).waitFor();
      await page.getByRole('textbox', { name: /^Change/ }).fill('10');
      await page.getByRole('textbox', { name: 'Reason' }).first().fill('Delivery from the weaver');
      await page.getByRole('button', { name: 'Adjust stock' }).click();
      const confirm = page.getByRole('dialog');
      await confirm.getByText('On hand: 3 →').waitFor();
      await confirm.getByText('13', { exact: true }).waitFor();
      await confirm.getByRole('button', { name: 'Apply' }).click();
      await page.getByText('On hand is now 13').waitFor();
      // A change the API refuses (below zero) is shown at the amount, and nothing changes.
      await page.getByRole('textbox', { name: /^Change/ }).fill('-20');
      await page.getByRole('button', { name: 'Adjust stock' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Apply' }).click();
      await page.getByText('On-hand quantity cannot go below zero (it would be -7)').waitFor();
      await page.getByRole('table', { name: 'Stock movements' }).getByText('Delivery from the weaver').waitFor();

      // The order holds its unit: releasing it by hand is refused, next to the field, with the figure.
      await page.getByRole('textbox', { name: /^Reserve/ }).fill('-1');
      await page.getByRole('button', { name: 'Apply to reservation' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Apply' }).click();
      await page.getByText(/Open orders hold 1 of the 1 reserved units/).waitFor();

      await page.getByRole('textbox', { name: 'Reorder level' }).fill('20');
      await page.getByRole('button', { name: 'Save level' }).click();
      await page.getByText('Low stock at 20 or fewer').waitFor();
      // One heading for the threshold, and the label on its input.
      assert.equal(await page.getByText('Reorder level', { exact: true }).count(), 1);

      await page.getByRole('link', { name: 'the product Linen apron' }).click();
      await page.waitForURL(new RegExp(`/admin/products/${low.productId}$`));
      await page.getByRole('table', { name: 'Variants' }).waitFor();
    });

    const stock = await inventoryOf(t, low.variantId);
    assert.equal(stock.quantity_on_hand, 13);
    assert.equal(stock.quantity_reserved, 1, 'the refused release changed nothing');
    const record = await admin.client.get(`/api/v1/admin/inventory/${low.variantId}`);
    assert.equal(record.body.data.reorder_level, 20);
    assert.equal(record.body.data.stock_status, 'LOW_STOCK', '12 available, reorder at 20');
    const movements = await admin.client.get(`/api/v1/admin/inventory/${low.variantId}/movements?limit=100`);
    assert.ok(
      movements.body.data.some((m: any) => m.kind === 'ADJUST' && m.delta_on_hand === 10 && m.reason === 'Delivery from the weaver'),
    );
    assert.equal(plenty.variantId.startsWith('var_'), true);
  });

  test('the records search by product name or SKU and sort on the server from the column headers, kept in the URL', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const tag = `inv${Date.now().toString(36)}`;
    const made = [];
    for (const [name, stock] of [
      ['Anchor', 5],
      ['Beacon', 40],
      ['Compass', 12],
    ] as const) {
      made.push(await sellableVariant(admin.client, { name: `${tag} ${name}`, stock }));
    }
    const sku = (await admin.client.get(`/api/v1/admin/inventory/${made[1]!.variantId}`)).body.data.sku as string;

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email);
      await page.getByRole('navigation').getByRole('link', { name: 'Inventory' }).click();
      const table = page.getByRole('table', { name: 'Inventory records' });
      await table.waitFor();
      const products = async () =>
        (await table.getByRole('row').getByRole('link').allInnerTexts()).map((name) => name.replace(`${tag} `, ''));

      await page.getByRole('searchbox', { name: 'Search' }).fill(tag);
      await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
      await page.waitForURL(new RegExp(`q=${tag}`));
      await page.getByText('1–3 of 3').waitFor();
      assert.deepEqual(await products(), ['Anchor', 'Beacon', 'Compass'], 'by product name by default');

      await table.getByRole('button', { name: 'On hand' }).click();
      await page.waitForURL(/sort=quantity_on_hand/);
      await table
        .getByRole('row')
        .nth(1)
        .getByRole('link', { name: `${tag} Anchor` })
        .waitFor();
      assert.deepEqual(await products(), ['Anchor', 'Compass', 'Beacon']);
      await table.getByRole('button', { name: 'On hand' }).click();
      await page.waitForURL(/sort=-quantity_on_hand/);
      await table
        .getByRole('row')
        .nth(1)
        .getByRole('link', { name: `${tag} Beacon` })
        .waitFor();
      assert.deepEqual(await products(), ['Beacon', 'Compass', 'Anchor']);
      assert.equal(await table.getByRole('columnheader', { name: 'On hand', exact: true }).getAttribute('aria-sort'), 'descending');

      // A SKU finds its record; the view opens as it was from a bookmark.
      await page.getByRole('searchbox', { name: 'Search' }).fill(sku.toLowerCase());
      await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
      await page.getByText('1–1 of 1').waitFor();
      assert.deepEqual(await products(), ['Beacon']);
      await page.reload();
      await page.getByText('1–1 of 1').waitFor();
      assert.equal(await page.getByRole('searchbox', { name: 'Search' }).inputValue(), sku.toLowerCase());
      assert.match(page.url(), /sort=-quantity_on_hand/);
    });
  });
});
