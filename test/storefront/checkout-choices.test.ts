import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { settled } from '../helpers/browser.js';
import { addressInput } from '../helpers/factories.js';
import { checkingOut, makeShop, ordersOf, PHONE, startShop } from '../helpers/storefront.js';

/** What a shopper chose at checkout stays chosen when the page is shown again: a reload, a trip to the cart, a fresh visit. */
const { t: app, browser } = await startShop();

const checked = (page: Page, street: string) =>
  page.getByRole('radio', { name: new RegExp(street) }).evaluate((el) => (el as unknown as { checked: boolean }).checked);

for (const javaScript of [true, false]) {
  test(`the address picked or added at checkout stays picked through a reload and a trip to the cart (JavaScript ${javaScript ? 'on' : 'off'})`, async (t) => {
    const { product } = await makeShop(app, { price: '20.00' });
    await checkingOut(
      browser,
      t,
      app,
      { variant: product.variants[0]!.id, quantity: 1 },
      async (page, buyer) => {
        const [home] = (await buyer.client.get('/api/v1/users/me/addresses')).body.data.filter((a: any) => a.is_default_shipping);
        assert.equal(await checked(page, home.address_1), true, 'the default at first');
        // The shop charges no tax: the total is not said to include any.
        await page.getByText('By placing the order you agree to pay $30.00, shipping included.', { exact: true }).waitFor();

        if (javaScript) {
          // Picked among the book's: kept by the shop as it is picked.
          const kept = page.waitForResponse((response) => response.url().includes('/checkout?/choose'));
          await page.getByRole('radio', { name: /40 Office Row/ }).check();
          await kept;
          await page.reload();
          assert.equal(await checked(page, '40 Office Row'), true, 'still picked after a reload');
          await page.getByRole('link', { name: 'Edit cart' }).click();
          await page.getByRole('heading', { level: 1, name: 'Your cart' }).waitFor();
          await page.goto('/checkout');
          assert.equal(await checked(page, '40 Office Row'), true, 'still picked after the cart');
        }

        // Added here: chosen, and still chosen on a fresh visit.
        await page.getByText('Add a new address').click();
        const panel = page.locator('details.add');
        await panel.getByLabel('Full name').fill('Mary Somerville');
        await panel.getByLabel('Phone').fill('+44 131 496 0000');
        await panel.getByLabel('Address', { exact: true }).fill('11 Harbour Road');
        await panel.getByLabel('City').fill('Edinburgh');
        await panel.getByLabel('State or region').fill('Lothian');
        await panel.getByLabel('Country').fill('GB');
        await panel.getByRole('button', { name: 'Save address' }).click();
        await page.getByText('Address saved and selected.').waitFor();
        assert.equal(await checked(page, '11 Harbour Road'), true);
        if (!javaScript) {
          // Answered with a redirect (post, redirect, get): the address bar keeps no action, a reload sends nothing again,
          // and the word that it worked is said once.
          assert.equal(new URL(page.url()).pathname + new URL(page.url()).search + new URL(page.url()).hash, '/checkout#ship-to');
          await page.reload();
          assert.equal(await page.getByText('Address saved and selected.').count(), 0);
          assert.equal(await checked(page, '11 Harbour Road'), true);
        }
        await page.goto('/cart');
        await page.goto('/checkout');
        assert.equal(await checked(page, '11 Harbour Road'), true, 'still chosen on a fresh visit');

        await page.getByRole('button', { name: 'Place order' }).click();
        await page.getByRole('heading', { name: 'Thank you! We have your order.' }).waitFor();
        const [order] = await ordersOf(app, buyer.email);
        const { body } = await buyer.client.get(`/api/v1/orders/${order!.public_id}`);
        assert.equal(body.data.shipping_address.address_1, '11 Harbour Road');
      },
      {
        javaScript,
        viewport: PHONE,
        before: async (buyer) => {
          const office = await buyer.client.post(
            '/api/v1/users/me/addresses',
            addressInput({ label: 'Office', address_1: '40 Office Row' }),
          );
          assert.equal(office.status, 201, office.text);
        },
      },
    );
  });
}

test('"Add a new address" opened before the page\'s script arrives stays open, with what was typed, once it runs', async (t) => {
  const { product } = await makeShop(app, { price: '20.00' });
  await checkingOut(
    browser,
    t,
    app,
    { variant: product.variants[0]!.id, quantity: 1 },
    async (page) => {
      // A slow connection: the page is there, its script a while behind (this visit: the one before was at full speed).
      await page.route('**/_app/immutable/**', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        await route.continue();
      });
      await page.goto('/checkout', { waitUntil: 'commit' });
      await page.getByText('Add a new address').click();
      const name = page.locator('details.add').getByLabel('Full name');
      await name.fill('Mary Somerville');
      await settled(page);
      assert.equal(await page.locator('details.add').evaluate((el) => el.hasAttribute('open')), true, 'still open');
      assert.equal(await name.inputValue(), 'Mary Somerville');
    },
    { viewport: PHONE },
  );
});

test("a coupon's minimum order is said as the shop writes money", async (t) => {
  const { admin, product } = await makeShop(app, { price: '20.00' });
  const code = `BIG${Date.now().toString(36)}`.toUpperCase();
  const coupon = await admin.post('/api/v1/admin/coupons', {
    code,
    discount_type: 'FIXED_AMOUNT',
    discount_value: '5.00',
    minimum_order_amount: '100',
  });
  assert.equal(coupon.status, 201, coupon.text);
  await checkingOut(
    browser,
    t,
    app,
    { variant: product.variants[0]!.id, quantity: 1 },
    async (page) => {
      await page.getByLabel('Coupon code (optional)').fill(code);
      await page.getByRole('button', { name: 'Apply' }).click();
      const said = page.locator('#coupon-error');
      await said.waitFor();
      assert.equal(await said.innerText(), 'That coupon cannot be used for this order: the order subtotal must be at least $100.00.');
    },
    { viewport: PHONE },
  );
});

test('without JavaScript, a refused code says the coupon applied before was taken off with it', async (t) => {
  const { admin, product } = await makeShop(app, { price: '20.00' });
  const code = `KEEP${Date.now().toString(36)}`.toUpperCase();
  assert.equal((await admin.post('/api/v1/admin/coupons', { code, discount_type: 'FIXED_AMOUNT', discount_value: '2.00' })).status, 201);
  await checkingOut(
    browser,
    t,
    app,
    { variant: product.variants[0]!.id, quantity: 1 },
    async (page) => {
      await page.getByLabel('Coupon code (optional)').fill(code);
      await page.getByRole('button', { name: 'Apply' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `${code} applied` })
        .waitFor();
      await page.getByLabel('Coupon code (optional)').fill('NOPE-NOT-A-CODE');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.locator('#coupon-error').waitFor();
      assert.equal(
        await page.locator('#coupon-error').innerText(),
        `That coupon cannot be used for this order: unknown code. ${code}, applied before, was taken off: apply it again to keep it.`,
      );
      // Said once: a reload shows the checkout as it stands, without the word about it.
      await page.goto('/checkout');
      assert.equal(await page.getByText('was taken off').count(), 0);
    },
    { javaScript: false, viewport: PHONE },
  );
});
