import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inConsole, signInThroughUi, startConsole } from '../helpers/browser.js';
import { checkout, inventoryOf, sellableVariant, shopper } from '../helpers/commerce.js';
import { signInAs } from '../helpers/factories.js';

const { t, browser } = await startConsole({ RATE_LIMIT_REGISTER: '0' });

describe('console: orders', () => {
  test('an order moves from placed to fulfilled, with the stock effect shown and applied', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const { variantId } = await sellableVariant(admin.client, { name: 'Walnut desk', price: '250.00', stock: 5 });
    const buyer = await shopper(t, [{ variantId, quantity: 2 }]);
    const placed = await checkout(buyer.client, buyer.addressId);
    assert.equal(placed.status, 201, placed.text);
    const number: string = placed.body.data.order_number;

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Orders' }).click();
      await page.getByRole('searchbox', { name: 'Search', exact: true }).fill(buyer.email);
      await page.waitForURL(/[?&]q=/);
      await page.getByRole('link', { name: number, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: `Order ${number}` }).waitFor();
      await page.getByRole('cell', { name: /Walnut desk/ }).waitFor();

      // The lines link to the product, the email to the customer.
      await page.getByRole('link', { name: 'Walnut desk' }).waitFor();
      await page.getByRole('link', { name: buyer.email }).waitFor();
      const sku = (await page.getByRole('cell', { name: /^SKU-/ }).innerText()).trim();

      await page.getByRole('button', { name: 'Confirm' }).click();
      const confirm = page.getByRole('dialog');
      await confirm.getByText(`Stock stays reserved for this order: 2 × ${sku}.`).waitFor();
      await confirm.getByRole('textbox', { name: 'Note (internal)' }).fill('Called the customer to check the address');
      await confirm.getByRole('button', { name: 'Confirm' }).click();
      await page.getByRole('button', { name: 'Ship' }).waitFor();

      await page.getByRole('button', { name: 'Ship' }).click();
      const ship = page.getByRole('dialog');
      await ship.getByText(`Shipping takes 2 × ${sku} out of on hand and reserved stock.`).waitFor();
      // The form refuses to send without a carrier, next to the field.
      await ship.getByRole('button', { name: 'Ship order' }).click();
      await ship.getByText('Name the carrier').waitFor();
      await ship.getByRole('textbox', { name: 'Carrier' }).fill('DHL');
      await ship.getByRole('textbox', { name: 'Tracking number' }).fill('JD0146');
      await ship.getByRole('button', { name: 'Ship order' }).click();
      await page.getByText('Shipped with DHL, tracking JD0146').waitFor();

      await page.getByRole('button', { name: 'Mark fulfilled' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Mark fulfilled' }).click();
      await page.getByText('No further steps').waitFor();
      const history = page.getByRole('heading', { name: 'History' }).locator('..');
      for (const step of ['Placed', 'Confirmed', 'Shipped', 'Fulfilled']) await history.getByText(step, { exact: true }).waitFor();
      await history.getByText('Called the customer to check the address').waitFor();
      // Each step credits the person who took it, not a role: the customer placed it, the staff member moved it on.
      const steps = history.locator('.mantine-Timeline-item');
      await steps.filter({ hasText: 'Placed' }).getByText('by the customer').waitFor();
      const confirmed = steps.filter({ hasText: 'Confirmed' });
      await confirmed.getByRole('link', { name: 'Staff ADMIN' }).click();
      await page.getByRole('heading', { level: 1, name: 'Staff ADMIN' }).waitFor();
      assert.match(page.url(), new RegExp(`/admin/customers/${admin.user.public_id}$`));
    });

    const order = await t.db.selectFrom('orders').select('status').where('order_number', '=', number).executeTakeFirstOrThrow();
    assert.equal(order.status, 'FULFILLED');
    const stock = await inventoryOf(t, variantId);
    assert.equal(stock.quantity_on_hand, 3, 'shipping took the two units out');
    assert.equal(stock.quantity_reserved, 0);
  });

  test('cancelling says, line by line, what goes back to stock and that the coupon use is released, and does it', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const mugs = await sellableVariant(admin.client, { name: 'Tea mug', price: '20.00', stock: 10 });
    const plates = await sellableVariant(admin.client, { name: 'Side plate', price: '15.00', stock: 10 });
    const code = `KEEP${Date.now() % 100000}`;
    assert.equal(
      (await admin.client.post('/api/v1/admin/coupons', { code, discount_type: 'PERCENTAGE', discount_value: '10' })).status,
      201,
    );
    const buyer = await shopper(t, [
      { variantId: mugs.variantId, quantity: 3 },
      { variantId: plates.variantId, quantity: 1 },
    ]);
    const placed = await checkout(buyer.client, buyer.addressId, { coupon_code: code });
    assert.equal(placed.status, 201, placed.text);
    const skus = placed.body.data.items.map((i: any) => i.sku) as string[];

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email, `/admin/orders/${placed.body.data.public_id}`);
      await page.getByRole('button', { name: 'Cancel order' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(`Cancelling releases 3 × ${skus[0]}, 1 × ${skus[1]} back to available stock.`).waitFor();
      await dialog.getByText(`The use of coupon ${code} is released: it counts as unused again.`).waitFor();
      await dialog.getByRole('button', { name: 'Cancel order' }).click();
      await page.getByText('No further steps').waitFor();
    });
    assert.deepEqual(await inventoryOf(t, mugs.variantId), { quantity_on_hand: 10, quantity_reserved: 0 });
    assert.deepEqual(await inventoryOf(t, plates.variantId), { quantity_on_hand: 10, quantity_reserved: 0 });
    const coupon = await admin.client.get(`/api/v1/admin/coupons?search=${code}`);
    assert.equal(coupon.body.data[0].times_used, 0);
  });

  test('a search typed just before following a link does not pull the person back to the list', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const { variantId } = await sellableVariant(admin.client, { stock: 5 });
    const buyer = await shopper(t, [{ variantId, quantity: 1 }]);
    const number: string = (await checkout(buyer.client, buyer.addressId)).body.data.order_number;
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email, '/admin/orders');
      await page.getByRole('link', { name: number, exact: true }).waitFor();
      // The order screen's code arrives slowly (a busy network): the list stays mounted meanwhile.
      await page.route(/\/assets\/order-[^/]+\.js$/, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        await route.continue();
      });
      await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('ORD');
      await page.getByRole('link', { name: number, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: `Order ${number}` }).waitFor();
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.match(new URL(page.url()).pathname, /^\/admin\/orders\/ord_/, 'still on the order');
    });
  });

  test('the list filters by status and search through the URL, and a bookmarked view opens as it was', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const { variantId } = await sellableVariant(admin.client, { stock: 10 });
    const buyers: { number: string; id: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const buyer = await shopper(t, [{ variantId, quantity: 1 }]);
      const placed = await checkout(buyer.client, buyer.addressId);
      assert.equal(placed.status, 201, placed.text);
      buyers.push({ number: placed.body.data.order_number as string, id: placed.body.data.public_id as string });
    }
    const cancelled = buyers[0]!;
    assert.equal((await admin.client.patch(`/api/v1/admin/orders/${cancelled.id}`, { status: 'CANCELLED' })).status, 200);

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email, '/admin/orders');
      await page.getByRole('combobox', { name: 'Status' }).click();
      await page.getByRole('option', { name: 'Cancelled' }).click();
      await page.waitForURL(/status=CANCELLED/);
      // The previous page stays on screen while the filtered one loads: wait for the other orders to go.
      await page.getByRole('link', { name: buyers[1]!.number, exact: true }).waitFor({ state: 'detached' });
      await page.getByRole('link', { name: cancelled.number, exact: true }).waitFor();
      assert.equal(await page.getByRole('link', { name: buyers[2]!.number, exact: true }).count(), 0);

      // The same URL in a new tab shows the same filtered view.
      const url = page.url();
      const again = await page.context().newPage();
      await again.goto(url);
      await again.getByRole('link', { name: cancelled.number, exact: true }).waitFor();
      assert.equal(await again.getByRole('link', { name: buyers[1]!.number, exact: true }).count(), 0);
      assert.equal(await again.getByRole('combobox', { name: 'Status' }).inputValue(), 'Cancelled');
      await again.close();

      await page.getByRole('button', { name: 'Clear filters' }).click();
      await page.getByRole('link', { name: buyers[2]!.number, exact: true }).waitFor();
    });
  });

  test('an order that does not exist keeps a heading that says so, and a way back to the list', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email, '/admin/orders/ord_doesnotexist00000000');
      await page.getByRole('heading', { level: 1, name: 'Order not found' }).waitFor();
      await page.getByRole('alert').getByText('It does not exist, or it was removed.').waitFor();
      await page.getByRole('link', { name: '← All orders' }).click();
      await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    });
  });
});
