import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inShop, makeShop, PHONE, startShop } from '../helpers/storefront.js';

/**
 * A visitor's cart (kept by the storefront until sign-in) says what an account's cart says of stock:
 * a line asking for more than there is shows how many there are and offers that number, and the
 * product page refuses to add more than there is, whatever the count (not only when few are left).
 */
const { t: app, browser } = await startShop();
const { product } = await makeShop(app, { stock: 12 });

for (const javaScript of [true, false]) {
  test(`a visitor asking for more than there is is told how many there are (JavaScript ${javaScript ? 'on' : 'off'})`, async (t) => {
    await inShop(
      browser,
      t,
      app,
      async (page) => {
        await page.goto(`/p/${product.slug}?size=S&colour=Sky`);
        await page.getByLabel('Quantity').fill('50');
        await page.getByRole('button', { name: 'Add to cart' }).click();
        await page.getByText('Only 12 left: choose 12 or fewer.').first().waitFor();
        await page.getByLabel('Quantity').fill('2');
        await page.getByRole('button', { name: 'Add to cart' }).click();
        await page.getByText('Added 2 × ').waitFor();

        await page.goto('/cart');
        const line = page.getByRole('listitem').filter({ hasText: 'S / Sky' });
        await line.getByLabel(/Quantity of/).fill('500');
        await line.getByRole('button', { name: /^Update/ }).click();
        await line.getByText('Only 12 left').waitFor();
        assert.equal(await page.getByRole('link', { name: 'Check out' }).getAttribute('aria-disabled'), 'true');
        await line.getByRole('button', { name: /^Change to 12/ }).click();
        await page.getByRole('link', { name: /^Cart, 12 items/ }).waitFor();
        assert.equal(await line.getByText('Only 12 left').count(), 0);
        assert.equal(await line.getByLabel(/Quantity of/).inputValue(), '12', 'the box shows the quantity now');
        assert.equal(await page.getByRole('link', { name: 'Check out' }).getAttribute('aria-disabled'), null);
      },
      { viewport: PHONE, javaScript },
    );
  });
}
