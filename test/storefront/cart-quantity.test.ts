import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inShop, makeShop, PHONE, startShop } from '../helpers/storefront.js';

/**
 * The cart's quantity box takes what the product page's takes (digits only, up to 999), and 0: an
 * empty or malformed box is refused at the box and changes nothing; only an explicit 0 removes the
 * line. With JavaScript and without.
 */
const { t: app, browser } = await startShop();
const { product, admin } = await makeShop(app);
const REFUSAL = 'Enter a whole number from 1 to 999, or 0 to remove it.';

for (const javaScript of [true, false]) {
  test(`an empty or malformed quantity is refused and keeps the line; 0 removes it (JavaScript ${javaScript ? 'on' : 'off'})`, async (t) => {
    const [kept, other] = [product.variants[0]!, product.variants[1]!];
    await inShop(
      browser,
      t,
      app,
      async (page, context) => {
        const lines = [`${product.id}~${kept.id}~2`, `${product.id}~${other.id}~1`];
        await context.addCookies([{ name: 'cart', value: lines.join('.'), url: app.baseUrl }]);
        await page.goto('/cart');
        await page.getByRole('link', { name: /^Cart, 3 items/ }).waitFor();
        const line = page.getByRole('listitem').filter({ hasText: kept.options.size + ' / ' + kept.options.colour });
        const box = line.getByLabel(/Quantity of/);

        // Number('') is 0, and 1e2 is a number to Number() and to the browser's number box: neither is a quantity here.
        for (const typed of ['', '1e2']) {
          await box.fill(typed);
          await line.getByRole('button', { name: /^Update/ }).click();
          await page.getByRole('alert').getByText(REFUSAL).waitFor();
          assert.equal(await line.getByLabel(/Quantity of/).getAttribute('aria-invalid'), 'true', `${typed || 'empty'}: at the box`);
          assert.equal(await page.getByText('Your cart is updated.').count(), 0, typed);
          await page.goto('/cart');
          await page.getByRole('link', { name: /^Cart, 3 items/ }).waitFor();
          assert.equal(await box.inputValue(), '2', `${typed || 'empty'}: the line is as it was`);
        }

        // More than there is: one message, which says both what happened and what stands in the way.
        await box.fill('999');
        await line.getByRole('button', { name: /^Update/ }).click();
        await page.getByRole('alert').getByText('Your cart is updated, but one item is not available in the quantity you chose.').waitFor();
        assert.equal(await page.getByText('Your cart is updated.', { exact: true }).count(), 0, 'no second, contradicting notice');

        await box.fill('0');
        await line.getByRole('button', { name: /^Update/ }).click();
        await page.getByRole('status').getByText('Removed from your cart.').waitFor();
        await page.getByRole('link', { name: /^Cart, 1 item/ }).waitFor();
        assert.equal(await line.count(), 0);
      },
      { viewport: PHONE, javaScript },
    );
  });
}

test("a quantity is digits, as on the product page: the cart's form refuses what Number() would take, and changes nothing", async () => {
  // Posted as a form is (a browser's own checks on the number field would stop most of these first).
  const variant = product.variants[2]!;
  const cart = `cart=${product.id}~${variant.id}~2`;
  const update = (quantity: string) =>
    fetch(`${app.baseUrl}/cart?/update`, {
      method: 'POST',
      headers: { origin: app.baseUrl, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', cookie: cart },
      body: new URLSearchParams({ variant: variant.id, quantity }),
      redirect: 'manual',
    });
  for (const typed of ['', ' ', '0x10', '1e2', '2e0', '1.0', '-1', '+3', '1000']) {
    const refused = await update(typed);
    assert.equal(refused.status, 400, `"${typed}"`);
    assert.match(await refused.text(), new RegExp(REFUSAL.replace(/[.,]/g, '\\$&')), `"${typed}"`);
    const written = refused.headers.getSetCookie().filter((line) => line.startsWith('cart='));
    assert.deepEqual(written, [], `"${typed}": the cart is as it was`);
  }
  // A line named by something that is no variant ID (one that names an object's prototype
  // included) is refused the same way, not a 500.
  for (const name of ['__proto__', 'constructor', 'var_x"<']) {
    const odd = await fetch(`${app.baseUrl}/cart?/update`, {
      method: 'POST',
      headers: { origin: app.baseUrl, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', cookie: cart },
      body: new URLSearchParams({ variant: name, quantity: 'abc' }),
      redirect: 'manual',
    });
    assert.equal(odd.status, 400, name);
    assert.match(await odd.text(), new RegExp(REFUSAL.replace(/[.,]/g, '\\$&')), name);
  }
  const changed = await update(' 7 ');
  assert.equal(changed.status, 303);
  assert.ok(
    // The cart's own ID first (guest-cart.ts), then its one line.
    changed.headers.getSetCookie().some((line) => new RegExp(`^cart=id~[\\w-]+\\.${product.id}~${variant.id}~7;`).test(line)),
    'set to 7',
  );
});

test("the cart says the order ships free exactly from the shop's threshold (500.00 by default), as the API prices it", async () => {
  const [atFifty, justBelow] = [product.variants[2]!, product.variants[3]!];
  for (const [variant, price] of [
    [atFifty, '50.00'],
    [justBelow, '49.99'],
  ] as const)
    assert.equal((await admin.patch(`/api/v1/admin/variants/${variant.id}`, { price })).status, 200);
  const page = async (variant: { id: string }, quantity: number) =>
    (await (await fetch(`${app.baseUrl}/cart`, { headers: { cookie: `cart=${product.id}~${variant.id}~${quantity}` } })).text()).replace(
      /\s+/g,
      ' ',
    );
  assert.match(await page(justBelow, 10), /Free shipping on orders from \$500\.00/, '499.90');
  assert.match(await page(atFifty, 10), /Your order ships free/, 'exactly 500.00');
});
