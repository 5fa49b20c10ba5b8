import assert from 'node:assert/strict';
import { test } from 'node:test';
import { customer, inShop, makeShop, PHONE, signInThroughShop, startShop, waitForScriptOnLoad } from '../helpers/storefront.js';

/**
 * A cart page shown to a signed-in shopper whose session then ends (signed out in another tab): its
 * forms change nothing, neither the account's cart nor a guest cart, and the page says why. With
 * JavaScript and without.
 */
const { t: app, browser } = await startShop();
const { product } = await makeShop(app);
const SIGNED_OUT = 'You were signed out. Sign in to see your cart.';

for (const javaScript of [true, false]) {
  test(`the cart's forms after signing out in another tab change nothing and say so (JavaScript ${javaScript ? 'on' : 'off'})`, async (t) => {
    const buyer = await customer(app);
    const variant = product.variants[0]!;
    assert.equal((await buyer.client.post('/api/v1/cart/items', { variant_public_id: variant.id, quantity: 2 })).status, 200);
    const accountCart = async () =>
      ((await buyer.client.get('/api/v1/cart')).body.data as { items: { quantity: number }[] }).items.map((line) => line.quantity);

    await inShop(
      browser,
      t,
      app,
      async (page, context) => {
        await signInThroughShop(page, buyer.email, buyer.password);
        // Two tabs on the account's cart, and a third that signs out.
        const other = waitForScriptOnLoad(await context.newPage());
        for (const tab of [page, other]) {
          await tab.goto('/cart');
          await tab.getByRole('link', { name: /^Cart, 2 items/ }).waitFor();
        }
        const third = waitForScriptOnLoad(await context.newPage());
        await third.goto('/logout');
        await third.getByRole('button', { name: 'Sign out' }).click();
        await third.waitForURL((url) => url.pathname === '/');
        await third.close();

        await page.getByLabel(/Quantity of/).fill('3');
        await page.getByRole('button', { name: /^Update/ }).click();
        await page.getByRole('alert').getByText(SIGNED_OUT).waitFor();
        assert.equal(await page.getByText('Your cart is updated.').count(), 0);

        await other.getByRole('button', { name: /^Remove/ }).click();
        await other.getByRole('alert').getByText(SIGNED_OUT).waitFor();
        assert.equal(await other.getByText('Removed from your cart.').count(), 0);
        await other.close();

        const guestCart = (await context.cookies()).filter((cookie) => cookie.name === 'cart');
        assert.deepEqual(guestCart, [], 'no guest cart was made');
      },
      { viewport: PHONE, javaScript },
    );
    assert.deepEqual(await accountCart(), [2], "the account's cart is as it was");
  });
}

test("the product page's Add, made for a signed-in shopper, changes no cart once they are signed out, and says so", async (t) => {
  const buyer = await customer(app);
  await inShop(
    browser,
    t,
    app,
    async (page, context) => {
      await signInThroughShop(page, buyer.email, buyer.password);
      await page.goto(`/p/${product.slug}`);
      const other = waitForScriptOnLoad(await context.newPage());
      await other.goto('/logout');
      await other.getByRole('button', { name: 'Sign out' }).click();
      await other.waitForURL((url) => url.pathname === '/');
      await other.close();
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await page.getByRole('alert').getByText('You were signed out. Sign in to add this to your cart.').waitFor();
      assert.deepEqual(
        (await context.cookies()).filter((cookie) => cookie.name === 'cart'),
        [],
        'no guest cart was made',
      );
    },
    { viewport: PHONE },
  );
  assert.deepEqual((await buyer.client.get('/api/v1/cart')).body.data.items, []);
});
