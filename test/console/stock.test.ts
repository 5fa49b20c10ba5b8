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
      // A change the API would refuse (below zero) is refused at the amount as it is typed, and never offered to apply.
      const amount = page.getByRole('textbox', { name: /^Change/ });
      await amount.fill('-20');
      await page.getByText('On-hand quantity cannot go below zero (it would be -7)').waitFor();
      assert.equal(await page.getByText(/On hand 13 → -7/).count(), 0, 'no figures after for a refused change');
      await page.getByRole('button', { name: 'Adjust stock' }).click();
      assert.equal(await page.getByRole('dialog').count(), 0, 'no confirmation to apply it');
      assert.ok(await amount.evaluate((input) => input === (globalThis as any).document.activeElement), 'focus is back on the amount');
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

      // The refused -20 and -1 are still typed: leaving asks, once for the two forms.
      await page.getByRole('link', { name: 'the product Linen apron' }).click();
      await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Leave without saving' }).click();
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

      await page.getByRole('searchbox', { name: 'Search', exact: true }).fill(tag);
      await page.getByRole('searchbox', { name: 'Search', exact: true }).press('Enter');
      await page.waitForURL(new RegExp(`q=${tag}`));
      await page.getByText('1–3 of 3').waitFor();
      assert.deepEqual(await products(), ['Anchor', 'Beacon', 'Compass'], 'by product name by default');

      await table.getByRole('button', { name: 'On hand' }).click();
      await page.waitForURL(/sort=quantity_on_hand/);
      // Anchor leads in both orders: wait for the row that tells the new order from the old (the table shows the
      // previous page while the next loads).
      await table
        .getByRole('row')
        .nth(2)
        .getByRole('link', { name: `${tag} Compass` })
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
      await page.getByRole('searchbox', { name: 'Search', exact: true }).fill(sku.toLowerCase());
      await page.getByRole('searchbox', { name: 'Search', exact: true }).press('Enter');
      await page.getByText('1–1 of 1').waitFor();
      assert.deepEqual(await products(), ['Beacon']);
      await page.reload();
      await page.getByText('1–1 of 1').waitFor();
      assert.equal(await page.getByRole('searchbox', { name: 'Search', exact: true }).inputValue(), sku.toLowerCase());
      assert.match(page.url(), /sort=-quantity_on_hand/);
    });
  });

  test('a reservation the server would refuse is refused before it is sent; its movement shows only what moved', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const { variantId } = await sellableVariant(admin.client, { name: 'Rattan basket', stock: 21 });

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email, `/admin/inventory/${variantId}`);
      await page.getByRole('heading', { level: 1, name: 'Rattan basket' }).waitFor();
      const reserve = page.getByRole('textbox', { name: /^Reserve/ });
      await reserve.fill('999');
      await page.getByText('Only 21 available: reserving 999 would leave -978').waitFor();
      assert.equal(
        await page.getByText('Available 21 → -978').count(),
        0,
        'a refused change shows no figures after, as if it could be made',
      );
      await page.getByRole('button', { name: 'Apply to reservation' }).click();
      assert.equal(await page.getByRole('dialog').count(), 0, 'no Apply is offered for what the server would refuse');
      assert.ok(await reserve.evaluate((input) => input === (globalThis as any).document.activeElement), 'focus is on the refused field');

      await reserve.fill('3');
      await page.getByText('Reserved 0 → 3 · Available 21 → 18').waitFor();
      await page.getByRole('textbox', { name: 'Reason' }).nth(1).fill('Photo shoot');
      await page.getByRole('button', { name: 'Apply to reservation' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Apply' }).click();
      await page.getByText('3 reserved').waitFor();

      // On hand did not move: the reservation's row says what did ("0 → 21" would read as a change).
      const row = page.getByRole('table', { name: 'Stock movements' }).getByRole('row').filter({ hasText: 'Photo shoot' });
      await row.getByRole('cell', { name: 'Reserved +3, now 3', exact: true }).waitFor();
      assert.doesNotMatch(await row.innerText(), /On hand|→/);
    });
    const stock = await inventoryOf(t, variantId);
    assert.deepEqual(stock, { quantity_on_hand: 21, quantity_reserved: 3 });
    const movements = (await admin.client.get(`/api/v1/admin/inventory/${variantId}/movements?limit=100`)).body.data as any[];
    assert.deepEqual(
      movements.map((m) => [m.kind, m.delta_reserved]),
      [
        ['RESERVE', 3],
        ['CREATE', 0],
      ],
      'the refused reservation never reached the server',
    );
  });
});
