import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inConsole, signInThroughUi, startConsole } from '../helpers/browser.js';
import { checkout, sellableVariant, shopper, tag } from '../helpers/commerce.js';
import { signInAs } from '../helpers/factories.js';

const { t, browser } = await startConsole({ RATE_LIMIT_REGISTER: '0' });

describe('console: the header search', () => {
  test('an order number, a SKU or an email goes straight to the thing; a product name lists what it finds', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const mark = tag();
    const { variantId, productId } = await sellableVariant(admin.client, { name: `Pewter tankard ${mark}`, stock: 5 });
    await sellableVariant(admin.client, { name: `Pewter plate ${mark}`, stock: 5 });
    const sku = (await admin.client.get(`/api/v1/admin/inventory/${variantId}`)).body.data.sku as string;
    const buyer = await shopper(t, [{ variantId, quantity: 1 }]);
    const order = (await checkout(buyer.client, buyer.addressId)).body.data;

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email);
      const search = page.getByRole('searchbox', { name: 'Search the store' });
      const find = async (text: string) => {
        await search.fill(text);
        await search.press('Enter');
      };
      await find(order.order_number.toLowerCase());
      await page.getByRole('heading', { level: 1, name: `Order ${order.order_number}` }).waitFor();
      await find(sku);
      await page.getByRole('heading', { level: 1, name: `Pewter tankard ${mark}` }).waitFor();
      assert.match(page.url(), new RegExp(`/admin/products/${productId}$`));
      await find(buyer.email.toUpperCase());
      await page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
      assert.match(page.url(), new RegExp(`/admin/customers/${buyer.user.public_id}$`));

      // A product's whole name goes straight to it; part of one lists what it finds.
      await find(`pewter tankard ${mark}`);
      await page.getByRole('heading', { level: 1, name: `Pewter tankard ${mark}` }).waitFor();
      assert.match(page.url(), new RegExp(`/admin/products/${productId}$`));
      await find(`plate ${mark}`);
      const results = page.getByRole('region', { name: 'Search results' });
      await results
        .getByRole('group', { name: 'Products' })
        .getByRole('link', { name: `Pewter plate ${mark}` })
        .click();
      await page.getByRole('heading', { level: 1, name: `Pewter plate ${mark}` }).waitFor();

      await find(`nothing-${mark}`);
      await page.getByRole('region', { name: 'Search results' }).getByText(`Nothing found for “nothing-${mark}”.`).waitFor();
    });
  });

  test('a list opened from a link searches for the text in it, even text that reads as a number (a SKU like 12E45678)', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    // Digits, an E and digits: as JSON, a number too large for a double (Infinity).
    const code = `${String(Date.now()).slice(-6)}E${900 + Math.floor(Math.random() * 99)}`;
    await sellableVariant(admin.client, { name: `Washer ${code}` });
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email, `/admin/products?q=${code}`);
      await page
        .getByRole('table', { name: 'Products' })
        .getByRole('link', { name: `Washer ${code}` })
        .waitFor();
      assert.equal(await page.getByRole('searchbox', { name: 'Search', exact: true }).inputValue(), code);
      // Typed into the list's own box, it stays as readable in the address.
      await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('1.50');
      await page.waitForURL((url) => url.searchParams.get('q') === '1.50');
    });
  });
});
