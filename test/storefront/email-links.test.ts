import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkout } from '../helpers/commerce.js';
import { login, PASSWORD, uniqueEmail } from '../helpers/factories.js';
import {
  customer,
  inShop,
  mailTo,
  makeShop,
  pathOf,
  PHONE,
  signInThroughShop,
  startShop,
  waitForScriptOnLoad,
} from '../helpers/storefront.js';

/**
 * Every link the service's emails send, read from the .eml files it writes, opens a page of the
 * storefront that does its job: verify the email, reset the password, confirm an email change
 * (only in the session that asked for it), show the order.
 */
const { t: app, browser } = await startShop();
const { product } = await makeShop(app);

describe('storefront: the pages emails link to', () => {
  test('verification: register in the shop, open the emailed link, the email is verified', async (t) => {
    const email = uniqueEmail('verify');
    await inShop(
      browser,
      t,
      app,
      async (page) => {
        await page.goto('/register');
        await page.getByLabel('First name').fill('Grace');
        await page.getByLabel('Last name').fill('Hopper');
        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
        await page.getByRole('button', { name: 'Create account' }).click();
        await page.getByText(`We sent a link to ${email}`).waitFor();
        await page.getByText('Not verified yet').waitFor();

        const mail = await mailTo(app, email, /^Verify your email address$/);
        assert.ok(mail.link?.startsWith(`${app.config.publicBaseUrl}/verify-email?token=`), mail.link ?? 'no link');
        await page.goto(pathOf(mail.link!));
        await page.getByRole('button', { name: 'Verify my email' }).click();
        await page.getByText(`Thank you: ${email} is verified.`).waitFor();
        await page.goto('/account');
        await page.getByText('Verified', { exact: true }).waitFor();
        // The welcome page reloaded after that no longer asks for the verification it has.
        await page.goto('/account?welcome=1');
        await page.getByRole('status').getByText('Your email is verified.').waitFor();
        assert.equal(await page.getByText('We sent a link to').count(), 0);

        // Opened again while signed in and verified: nothing to do, and it says so.
        await page.goto(pathOf(mail.link!));
        await page.getByText('Your email address is verified already').waitFor();
        assert.equal(await page.getByRole('button', { name: 'Verify my email' }).count(), 0);
        // Anyone else: the link works once.
        await page.context().clearCookies();
        await page.goto(pathOf(mail.link!));
        await page.getByRole('button', { name: 'Verify my email' }).click();
        await page.getByText('This verification link has expired or was used already.').waitFor();
      },
      { viewport: PHONE },
    );
    const row = await app.db.selectFrom('users').select('email_verified_at').where('email', '=', email).executeTakeFirstOrThrow();
    assert.ok(row.email_verified_at);
  });

  test('password reset: ask in the shop, open the emailed link, choose a new password, sign in with it', async (t) => {
    const buyer = await customer(app, { address: false });
    const newPassword = 'Brand-New-Pass-7';
    await inShop(browser, t, app, async (page) => {
      await page.goto('/login');
      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      // The sign-in page has an Email field too: fill the one on the page the link leads to.
      await page.getByRole('heading', { level: 1, name: 'Forgot your password?' }).waitFor();
      await page.getByLabel('Email').fill(buyer.email);
      await page.getByRole('button', { name: 'Send the link' }).click();
      await page.getByText(`If an account uses ${buyer.email}`).waitFor();

      const mail = await mailTo(app, buyer.email, /^Reset your password$/);
      assert.ok(mail.link?.startsWith(`${app.config.publicBaseUrl}/reset-password?token=`));
      await page.goto(pathOf(mail.link!));
      await page.getByLabel('New password', { exact: true }).fill(newPassword);
      await page.getByLabel('New password again').fill(newPassword);
      await page.getByRole('button', { name: 'Save the new password' }).click();
      await page.getByText('Your password has been changed. Sign in with the new one.').waitFor();
      await signInThroughShop(page, buyer.email, newPassword);
      await page.getByRole('heading', { level: 1, name: /^Hello/ }).waitFor();

      // The same link again: it says at once that it is spent, before a password is typed for nothing.
      await page.goto(pathOf(mail.link!));
      await page.getByRole('alert').getByText('This reset link has expired or was used already.').waitFor();
      assert.equal(await page.getByLabel('New password', { exact: true }).count(), 0);
      await page.getByRole('link', { name: 'Send me a new link' }).waitFor();
      await page.goto('/reset-password?token=not-a-real-token-abcdefghijklmnopqrstuvwxyz');
      await page.getByRole('alert').getByText('This reset link is not valid.').waitFor();
    });
    assert.equal((await login(app, buyer.email, PASSWORD)).status, 401, 'the old password no longer works');
    // Every session the account had was ended by the reset.
    assert.equal((await buyer.client.get('/api/v1/users/me')).status, 401);
  });

  test('email change: the link does nothing in another session (and says why), and changes the email in the one that asked', async (t) => {
    const buyer = await customer(app, { address: false });
    const newEmail = uniqueEmail('moved');
    await inShop(browser, t, app, async (page) => {
      await signInThroughShop(page, buyer.email, buyer.password);
      await page.goto('/account/email');
      await page.getByLabel('New email').fill(newEmail);
      await page.getByLabel('Your password').fill(buyer.password);
      await page.getByRole('button', { name: 'Send the link' }).click();
      await page.getByText(`We sent a link to ${newEmail}`).waitFor();
      const mail = await mailTo(app, newEmail, /^Confirm your new email address$/);
      const link = pathOf(mail.link!);
      assert.ok(link.startsWith('/confirm-email-change?token='), link);

      // Another browser: signed out, it explains; signed in (another session of the same account), the API refuses and it says why.
      const elsewhere = await browser.newContext({ baseURL: app.baseUrl });
      try {
        const other = waitForScriptOnLoad(await elsewhere.newPage());
        await other.goto(link);
        await other.getByText('this link works only in the browser where you asked for the change').waitFor();
        await signInThroughShop(other, buyer.email, buyer.password);
        await other.goto(link);
        // Said as the page opens, with no button that could not work here.
        await other.getByRole('alert').getByText('This link does not work here.').waitFor();
        assert.equal(await other.getByRole('button', { name: 'Confirm my new email' }).count(), 0);
        await other.getByRole('link', { name: 'Change your email here' }).waitFor();
      } finally {
        await elsewhere.close();
      }
      assert.equal((await login(app, newEmail)).status, 401, 'not changed by the other session');

      await page.goto(link);
      // It says who is signed in, and never offers the current address as the new one.
      await page.getByText(`You are signed in as ${buyer.email}.`).waitFor();
      assert.doesNotMatch(await page.locator('main').innerText(), new RegExp(`new address[^.]*${buyer.email.replace(/[.+]/g, '\\$&')}`));
      await page.getByRole('button', { name: 'Confirm my new email' }).click();
      await page.getByText(`Done: your account's email is now ${newEmail}.`).waitFor();
    });
    assert.equal((await login(app, newEmail)).status, 200, 'signing in takes the new email');
    assert.equal((await login(app, buyer.email)).status, 401);
  });

  test('order emails: the link opens the order after signing in; another account gets not found', async (t) => {
    const buyer = await customer(app);
    await buyer.client.post('/api/v1/cart/items', { variant_public_id: product.variants[0]!.id, quantity: 1 });
    const address = (await buyer.client.get('/api/v1/users/me/addresses')).body.data[0].public_id;
    const placed = await checkout(buyer.client, address);
    assert.equal(placed.status, 201, placed.text);
    const mail = await mailTo(app, buyer.email, /^Order ORD-\d+ is confirmed$/);
    assert.equal(mail.link, `${app.config.publicBaseUrl}/orders/${placed.body.data.public_id}`);

    await inShop(browser, t, app, async (page) => {
      await page.goto(pathOf(mail.link!));
      await page.getByText('Sign in to see your order.').waitFor();
      await signInThroughShop(page, buyer.email, buyer.password);
      await page.getByRole('heading', { level: 1, name: `Order ${placed.body.data.order_number}` }).waitFor();
      assert.match(await page.locator('main').innerText(), new RegExp(product.name));

      const stranger = await customer(app, { address: false });
      await page.goto('/logout');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await signInThroughShop(page, stranger.email, stranger.password);
      const response = await page.goto(pathOf(mail.link!));
      assert.equal(response?.status(), 404);
      await page.getByRole('heading', { name: 'We could not find that page' }).waitFor();
    });
  });
});
