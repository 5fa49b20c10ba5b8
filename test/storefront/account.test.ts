import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Client } from '../helpers/client.js';
import { checkout, sellableVariant, shopper } from '../helpers/commerce.js';
import { signInAs } from '../helpers/factories.js';
import { customer, inShop, mailbox, PHONE, signInThroughShop, startShop } from '../helpers/storefront.js';

/**
 * Every form of the account's pages, pressed as a shopper would, with JavaScript and without: the
 * details, the verification link sent again, an address edited, devices signed out one at a time and
 * everywhere else, the password changed. Each is confirmed on the page and in the API's data.
 */
const { t: app, browser } = await startShop();

/** Another device of the same account: its own session, named by its user agent on the devices page. */
async function device(email: string, password: string, agent: string): Promise<Client> {
  const client = app.client();
  const login = await client.post('/api/v1/auth/login', { email, password }, { headers: { 'user-agent': agent } });
  assert.equal(login.status, 200, login.text);
  return client;
}
const signedIn = async (client: Client) => (await client.get('/api/v1/users/me')).status === 200;

for (const javaScript of [true, false]) {
  test(`the account's forms do what they say (JavaScript ${javaScript ? 'on' : 'off'})`, async (t) => {
    const buyer = await customer(app);
    const tablet = await device(buyer.email, buyer.password, 'Tablet-One');
    const laptop = await device(buyer.email, buyer.password, 'Laptop-Two');
    const newPassword = 'Another-Pass-42';
    const address = (await buyer.client.get('/api/v1/users/me/addresses')).body.data[0] as { public_id: string; address_1: string };

    await inShop(
      browser,
      t,
      app,
      async (page) => {
        await signInThroughShop(page, buyer.email, buyer.password);

        await page.goto('/account');
        await page.getByLabel('First name').fill('Emmy');
        await page.getByRole('button', { name: 'Save', exact: true }).click();
        await page.getByRole('status').getByText('Saved.').waitFor();
        await page.getByRole('heading', { level: 1, name: 'Hello, Emmy' }).waitFor();

        const verifications = () => mailbox(app, buyer.email).filter((m) => m.subject === 'Verify your email address').length;
        const before = verifications();
        await page.getByRole('button', { name: 'Send the link again' }).click();
        await page.getByRole('status').getByText(`We sent a new verification link to ${buyer.email}.`).waitFor();
        for (let i = 0; i < 100 && verifications() === before; i++) await new Promise((resolve) => setTimeout(resolve, 100));
        assert.equal(verifications(), before + 1, 'a new verification email');

        await page.goto(`/account/addresses/${address.public_id}`);
        await page.getByLabel('City').fill('Bath');
        // Blank optional fields are cleared, not left as they were.
        await page.getByLabel('Postcode (optional)').fill('');
        await page.getByLabel('Label (optional)').fill('');
        await page.getByRole('button', { name: 'Save', exact: true }).click();
        await page.waitForURL((url) => url.pathname === '/account/addresses');
        await page.getByRole('listitem').filter({ hasText: address.address_1 }).getByText(/Bath/).waitFor();

        await page.goto('/account/sessions');
        await page.getByRole('button', { name: /^Sign out\W+Tablet-One/ }).click();
        await page.getByRole('status').getByText('That device is signed out.').waitFor();
        assert.equal(await page.getByText('Tablet-One').count(), 0);
        assert.equal(await signedIn(tablet), false, 'the tablet is signed out');
        assert.equal(await signedIn(laptop), true, 'the laptop is not');
        await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
        await page.getByRole('status').getByText('You are now signed out everywhere else.').waitFor();
        assert.equal(await signedIn(laptop), false, 'the laptop is signed out');
        assert.equal(await page.getByRole('button', { name: 'Sign out everywhere else' }).count(), 0, 'nothing else to sign out');

        const phone = await device(buyer.email, buyer.password, 'Phone-Three');
        await page.goto('/account/password');
        await page.getByLabel('Current password').fill(buyer.password);
        await page.getByLabel('New password', { exact: true }).fill(newPassword);
        await page.getByLabel('New password again').fill(newPassword);
        await page.getByRole('button', { name: 'Change password' }).click();
        await page.getByRole('status').getByText('Your password is changed. Your other devices have been signed out.').waitFor();
        assert.equal(await signedIn(phone), false, 'the phone is signed out');
        await page.goto('/account');
        await page.getByRole('heading', { level: 1, name: 'Hello, Emmy' }).waitFor();
      },
      { viewport: PHONE, javaScript },
    );

    const me = (await buyer.client.get('/api/v1/users/me')).status;
    assert.equal(me, 401, 'the API client signed in before the change is signed out too');
    const again = app.client();
    assert.equal((await again.post('/api/v1/auth/login', { email: buyer.email, password: newPassword })).status, 200);
    const profile = (await again.get('/api/v1/users/me')).body.data as { first_name: string };
    assert.equal(profile.first_name, 'Emmy');
    const edited = (await again.get(`/api/v1/users/me/addresses/${address.public_id}`)).body.data as {
      city: string;
      zip_code: string | null;
      label: string | null;
    };
    assert.deepEqual({ city: edited.city, zip_code: edited.zip_code, label: edited.label }, { city: 'Bath', zip_code: null, label: null });
  });
}

test('registering with an email that has an account says so at the field, with the ways in', async (t) => {
  const taken = await customer(app);
  await inShop(
    browser,
    t,
    app,
    async (page) => {
      await page.goto('/register');
      await page.getByLabel('First name').fill('Ada');
      await page.getByLabel('Last name').fill('Lovelace');
      await page.getByLabel('Email').fill(taken.email);
      await page.getByLabel('Password', { exact: true }).fill('Correct-Horse-9');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('alert').filter({ hasText: 'An account with this email already exists.' }).waitFor();
      assert.equal(await page.getByLabel('Email').getAttribute('aria-invalid'), 'true');
      await page.getByRole('link', { name: 'reset its password' }).click();
      await page
        .getByRole('heading', { level: 1 })
        .filter({ hasText: /password/i })
        .waitFor();
    },
    { viewport: PHONE },
  );
});

test('dates and times are in the shopper’s own time zone once the page runs; rendered without JavaScript, in UTC and said so', async (t) => {
  const admin = await signInAs(app, 'ADMIN');
  const { variantId } = await sellableVariant(admin.client);
  const buyer = await shopper(app, [{ variantId, quantity: 1 }]);
  const placed = await checkout(buyer.client, buyer.addressId);
  assert.equal(placed.status, 201, placed.text);
  const order = placed.body.data as { public_id: string; placed_at: string; status_history: { at: string }[] };
  const at = order.status_history[0]!.at;
  const inZone = (timeZone: string) =>
    new Intl.DateTimeFormat('en-GB', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
      timeZone,
    }).format(new Date(at));
  const dayIn = (timeZone: string) =>
    new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone }).format(new Date(order.placed_at));

  for (const javaScript of [true, false]) {
    await inShop(
      browser,
      t,
      app,
      async (page) => {
        await signInThroughShop(page, buyer.email);
        await page.goto(`/orders/${order.public_id}`);
        const zone = javaScript ? 'Asia/Tokyo' : 'UTC';
        const step = page.getByRole('region', { name: 'History' }).getByRole('listitem').first().locator('time');
        await step.filter({ hasText: inZone(zone) }).waitFor();
        assert.equal(await step.getAttribute('datetime'), at);
        // The two expectations differ (Tokyo is never UTC), so the page could not pass both by chance.
        assert.match(inZone(zone), javaScript ? /GMT\+9$/ : /UTC$/);
        await page
          .locator('p.status time')
          .filter({ hasText: dayIn(zone) })
          .waitFor();
      },
      { javaScript, timezoneId: 'Asia/Tokyo', label: javaScript ? 'js' : 'no-js' },
    );
  }
});
