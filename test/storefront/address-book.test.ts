import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { gainsFocus, inView, keepScreenshot } from '../helpers/browser.js';
import { addressInput } from '../helpers/factories.js';
import { customer, inShop, PHONE, SHOP_RESULTS, signInThroughShop, startShop } from '../helpers/storefront.js';

/**
 * The account's address book in the shop: add an address, make it the default for billing, remove
 * the old one (after a yes), each confirmed on the page and in the API's data; with JavaScript and without (the
 * forms post and the page comes back).
 */
const { t: app, browser } = await startShop();

interface Address {
  public_id: string;
  address_1: string;
  is_default_shipping: boolean;
  is_default_billing: boolean;
}

/** Opens the address book's add panel and fills in an Edinburgh address on `street` (the country left to the caller). */
async function fillNewAddress(page: Page, street: string): Promise<void> {
  await page.goto('/account/addresses');
  await page.getByText('Add an address').click();
  await page.getByLabel('Full name').fill('Mary Somerville');
  await page.getByLabel('Phone').fill('+44 131 496 0000');
  await page.getByLabel('Address', { exact: true }).fill(street);
  await page.getByLabel('City').fill('Edinburgh');
  await page.getByLabel('State or region').fill('Lothian');
}

for (const javaScript of [true, false]) {
  test(`the address book adds, changes a default and removes (JavaScript ${javaScript ? 'on' : 'off'})`, async (t) => {
    const buyer = await customer(app);
    const addresses = async () => (await buyer.client.get('/api/v1/users/me/addresses')).body.data as Address[];
    const [first] = await addresses();
    assert.ok(first?.is_default_shipping && first.is_default_billing);
    const street = `${javaScript ? 7 : 9} Harbour Road`;

    await inShop(
      browser,
      t,
      app,
      async (page) => {
        await signInThroughShop(page, buyer.email, buyer.password);
        await fillNewAddress(page, street);
        await page.getByLabel('Postcode (optional)').fill('EH1 1YZ');
        await page.getByLabel('Country').fill('GB');
        if (!javaScript) {
          // Refused (a city of spaces passes the browser's check, not the shop's): the page comes back at its top,
          // which says so and leads to the form, the form as it was sent, the default box still ticked.
          await page.getByLabel('City').fill('  ');
          await page.getByLabel('Default for shipping').check();
          await page.getByRole('button', { name: 'Save address' }).click();
          await page.getByText('The new address was not saved.').waitFor();
          await page.getByRole('link', { name: 'Correct it below' }).click();
          assert.equal(await page.getByLabel('Default for shipping').isChecked(), true);
          assert.equal(await page.getByLabel('Address', { exact: true }).inputValue(), street);
          await page.getByLabel('City').fill('Edinburgh');
          await page.getByLabel('Default for shipping').uncheck();
        }
        await page.getByRole('button', { name: 'Save address' }).click();
        await page.getByRole('status').getByText('Address added.').waitFor();

        await page.getByRole('button', { name: new RegExp(`^Use for billing\\W+${street}$`) }).click();
        await page.getByRole('status').getByText('Your default billing address is changed.').waitFor();
        const added = page.getByRole('listitem').filter({ hasText: street });
        await added.getByText('Default billing').waitFor();
        // The town line as the order emails and the console print it: City, State ZIP.
        assert.match((await added.innerText()).replace(/\s+/g, ' '), /Edinburgh, Lothian EH1 1YZ, GB/);

        // Removing asks first, under that address; "Keep it" leaves the book as it was.
        const question = page.locator('p').filter({ hasText: 'Remove this address from your book?' });
        await page.getByRole('button', { name: `Remove ${first.address_1}` }).click();
        await question.waitFor();
        await keepScreenshot(page, path.join(SHOP_RESULTS, `address-remove-asks-${javaScript ? 'js' : 'no-js'}-phone.png`));
        if (javaScript) {
          assert.ok(await gainsFocus(question), 'focus is on the question');
        } else {
          // Without JavaScript the page comes back at that address with its question, not at its top.
          assert.ok(new URL(page.url()).hash.startsWith('#address-'), page.url());
        }
        for (const shown of [page.getByRole('listitem').filter({ has: question }).locator('p').first(), question])
          assert.ok(await inView(shown), await shown.innerText());
        await page.getByRole('link', { name: 'Keep it' }).click();
        await question.waitFor({ state: 'detached' });
        if (javaScript) {
          const remove = page.getByRole('button', { name: `Remove ${first.address_1}` });
          assert.ok(await gainsFocus(remove), 'focus is back on Remove');
        }
        assert.equal((await addresses()).length, 2, 'nothing removed yet');
        await page.getByRole('button', { name: `Remove ${first.address_1}` }).click();
        await page.getByRole('button', { name: `Yes, remove ${first.address_1}` }).click();
        // It held the shipping default, which the next address now holds (the shop's rule): said, as nobody chose it.
        await page.getByRole('status').getByText('Address removed.').waitFor();
        assert.equal(
          (await page.getByRole('status').filter({ hasText: 'Address removed.' }).innerText()).replace(/\s+/g, ' ').trim(),
          `Address removed. Mary Somerville, ${street} is now your default shipping address.`,
        );
        assert.equal(await page.getByRole('listitem').filter({ hasText: first.address_1 }).count(), 0);
      },
      { viewport: PHONE, javaScript },
    );

    const after = await addresses();
    assert.deepEqual(
      after.map((a) => ({ street: a.address_1, billing: a.is_default_billing })),
      [{ street, billing: true }],
    );
  });
}

test('a double press on Save address adds the address once', async (t) => {
  const buyer = await customer(app);
  const count = async () => ((await buyer.client.get('/api/v1/users/me/addresses')).body.data as Address[]).length;
  const before = await count();
  await inShop(
    browser,
    t,
    app,
    async (page) => {
      await signInThroughShop(page, buyer.email, buyer.password);
      await fillNewAddress(page, '3 Harbour Road');
      await page.getByLabel('Country').fill('GB');
      // The answer held back a moment, as on a slow phone network: the second press comes while the first is on its way.
      await page.route(/\/account\/addresses\?\/add$/, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 600));
        await route.continue();
      });
      const save = page.getByRole('button', { name: /^(Save address|Saving…)$/ });
      await save.click();
      await page.waitForTimeout(150);
      await save.click({ force: true });
      await page.getByRole('status').getByText('Address added.').waitFor();
      await page.waitForTimeout(800);
    },
    { viewport: PHONE },
  );
  assert.equal(await count(), before + 1);
});

test('a form sent twice without JavaScript (a double press, a resend after a lost answer) adds the address once', async (t) => {
  const buyer = await customer(app);
  const count = async () => ((await buyer.client.get('/api/v1/users/me/addresses')).body.data as Address[]).length;
  const before = await count();
  await inShop(
    browser,
    t,
    app,
    async (page) => {
      await signInThroughShop(page, buyer.email, buyer.password);
      await fillNewAddress(page, '3 Harbour Road');
      await page.getByLabel('Country').fill('GB');
      // What the browser sends for the form, sent twice at once as a second press sends it.
      const add = page.locator('form[action="?/add"]');
      const field = (name: string) => add.locator(`[name="${name}"]`).inputValue();
      const form: Record<string, string> = {};
      for (const name of ['csrf', 'address_key', 'recipient_name', 'phone_number', 'address_1', 'city', 'state', 'country'])
        form[name] = await field(name);
      const send = () => page.request.post('/account/addresses?/add', { form, headers: { origin: app.baseUrl, accept: 'text/html' } });
      const answers = await Promise.all([send(), send()]);
      for (const answer of answers) assert.match(await answer.text(), /Address added\./);
      // A page rendered anew is a new form: the same address added from it is another address, as asked.
      await page.goto('/account/addresses');
      const again = { ...form, address_key: await field('address_key') };
      assert.notEqual(again.address_key, form.address_key);
      assert.match(
        await (
          await page.request.post('/account/addresses?/add', { form: again, headers: { origin: app.baseUrl, accept: 'text/html' } })
        ).text(),
        /Address added\./,
      );
    },
    { viewport: PHONE, javaScript: false },
  );
  assert.equal(await count(), before + 2);
});

test('a new address half typed stays open, with what was typed, while another form on the page is answered; saved, the panel folds', async (t) => {
  const buyer = await customer(app);
  const second = await buyer.client.post('/api/v1/users/me/addresses', addressInput({ address_1: '5 Canal Street' }));
  assert.equal(second.status, 201, second.text);
  await inShop(
    browser,
    t,
    app,
    async (page) => {
      await signInThroughShop(page, buyer.email, buyer.password);
      await fillNewAddress(page, '11 Harbour Road');
      await page.getByRole('button', { name: /^Use for billing\W+5 Canal Street$/ }).click();
      await page.getByRole('status').getByText('Your default billing address is changed.').waitFor();
      // The answer to another form neither folds the panel nor loses what was typed in it.
      assert.equal(await page.locator('details.add').evaluate((el) => el.hasAttribute('open')), true, 'still open');
      assert.equal(await page.getByLabel('Address', { exact: true }).inputValue(), '11 Harbour Road');
      await page.getByLabel('Country').fill('GB');
      // Refused by the shop (a hidden control character in the name): the refusal and what was typed stay
      // through another form's answer too.
      await page.getByLabel('Full name').fill('Mary Somerville\u202e');
      await page.getByRole('button', { name: 'Save address' }).click();
      const refusal = page.locator('details.add').getByRole('alert');
      await refusal.waitFor();
      await page.getByRole('button', { name: /^Use for shipping\W+5 Canal Street$/ }).click();
      await page.getByRole('status').getByText('Your default shipping address is changed.').waitFor();
      assert.equal(await page.locator('details.add').evaluate((el) => el.hasAttribute('open')), true, 'open after the refusal');
      await refusal.waitFor();
      assert.equal(await page.getByLabel('City').inputValue(), 'Edinburgh');
      // Sent with Enter from a field: the keyboard is on that field when the panel folds over it.
      await page.getByLabel('Full name').fill('Mary Somerville');
      await page.getByLabel('Full name').press('Enter');
      await page.getByRole('status').getByText('Address added.').waitFor();
      // Saved: the panel folds, and the word that it worked (the new address under it) takes the keyboard, in view.
      const summary = page.getByText('Add an address');
      await page.locator('details.add:not([open])').waitFor({ state: 'attached' });
      const added = page.getByRole('status').filter({ hasText: 'Address added.' });
      assert.ok(await gainsFocus(added), 'focus on the notice');
      await page.getByRole('listitem').filter({ hasText: '11 Harbour Road' }).waitFor();
      // Opened again, it is empty and stays open through the next answer too.
      await summary.click();
      assert.equal(await page.getByLabel('Address', { exact: true }).inputValue(), '');
      await page.getByRole('button', { name: /^Use for billing\W+12 St James Square$/ }).click();
      await page.getByRole('status').getByText('Your default billing address is changed.').waitFor();
      assert.equal(await page.locator('details.add').evaluate((el) => el.hasAttribute('open')), true, 'open again');
    },
    { viewport: PHONE },
  );
});

test('two addresses on one street are told apart by their buttons, for a screen reader too', async (t) => {
  const buyer = await customer(app, { address: false });
  for (const [label, name] of [
    ['Home', 'Ken Thompson'],
    ['Office', 'Ken Thompson'],
  ]) {
    const made = await buyer.client.post(
      '/api/v1/users/me/addresses',
      addressInput({ address_1: '15 Demo Street', label, recipient_name: name }),
    );
    assert.equal(made.status, 201, made.text);
  }
  await inShop(
    browser,
    t,
    app,
    async (page) => {
      await signInThroughShop(page, buyer.email, buyer.password);
      await page.goto('/account/addresses');
      for (const label of ['Home', 'Office']) {
        for (const name of [`Remove 15 Demo Street (Ken Thompson, ${label})`, `Edit Ken Thompson, 15 Demo Street (${label})`]) {
          assert.equal(
            await page
              .getByRole('button', { name, exact: true })
              .or(page.getByRole('link', { name, exact: true }))
              .count(),
            1,
            name,
          );
        }
      }
    },
    { javaScript: false },
  );
});
