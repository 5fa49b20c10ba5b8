import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { gainsFocus, inConsole, signInThroughUi, startConsole } from '../helpers/browser.js';
import { signInAs, signUp, uniqueEmail } from '../helpers/factories.js';
import { startMailServer, tokenFrom } from '../helpers/mail.js';

const mail = await startMailServer();
after(() => mail.close());
const { t, browser } = await startConsole({ SMTP_URL: mail.url, EMAIL_POLL_INTERVAL_MS: '50', RATE_LIMIT_REGISTER: '0' });

const SUBJECT = 'You are invited to run the store';

describe('console: staff invitations', () => {
  test('a SUPER_ADMIN invites a person, who sets a name and password from the emailed link and is signed in as staff', async (t2) => {
    const owner = await signInAs(t, 'SUPER_ADMIN');
    const customer = await signUp(t);
    const email = uniqueEmail('clerk');
    let token = '';

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, owner.email);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Invitations' }).click();
      await page.getByRole('heading', { level: 1, name: 'Invitations' }).waitFor();

      // An email with an account is not invited: its role is changed on its screen, which the form leads to.
      await page.getByRole('textbox', { name: 'Email' }).fill(customer.email);
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByText('This email already has an account: change its role on the account’s screen').waitFor();
      await page.getByRole('link', { name: `Open the account of ${customer.email}` }).click();
      // The refused email is still typed: leaving asks first.
      await page.getByRole('button', { name: 'Leave without saving' }).click();
      await page.waitForURL((url) => url.pathname === `/admin/customers/${customer.user.public_id}`);
      await page.getByText(customer.email).first().waitFor();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Invitations' }).click();
      await page.getByRole('heading', { level: 1, name: 'Invitations' }).waitFor();

      await page.getByRole('textbox', { name: 'Email' }).fill(email);
      await page.getByRole('combobox', { name: 'Role' }).click();
      await page.getByRole('option', { name: 'Admin', exact: true }).click();
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByText(`Invitation sent to ${email}`).waitFor();
      await page.getByRole('table', { name: 'Invitations' }).getByRole('cell', { name: email, exact: true }).waitFor();
      token = tokenFrom((await mail.waitForMail(email, SUBJECT)).raw);

      // A second one, revoked: its row leaves the waiting list and its link stops working.
      const other = uniqueEmail('other');
      await page.getByRole('textbox', { name: 'Email' }).fill(other);
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByRole('button', { name: `Revoke the invitation of ${other}` }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
      await page.getByRole('table', { name: 'Invitations' }).getByRole('cell', { name: other, exact: true }).waitFor({ state: 'detached' });
      await page.locator('.mantine-SegmentedControl-root').getByText('Revoked', { exact: true }).click();
      await page.getByRole('table', { name: 'Invitations' }).getByRole('cell', { name: other, exact: true }).waitFor();
    });

    // The invited person, in a browser of their own, with no account.
    await inConsole(
      browser,
      t2,
      t,
      async (page) => {
        await page.goto(`/admin/accept-invitation?token=${encodeURIComponent(token)}`);
        await page.getByRole('heading', { level: 1, name: 'Join the store’s staff' }).waitFor();
        await page.getByText(`with the email ${email}`).waitFor();
        await page.getByRole('textbox', { name: 'First name' }).fill('Grace');
        await page.getByRole('textbox', { name: 'Last name' }).fill('Clerk');
        // Each refusal moves focus to the field in error, so it is heard and typed into at once.
        const password = page.getByRole('textbox', { name: 'Password', exact: true });
        const repeat = page.getByRole('textbox', { name: 'Repeat the password' });
        await password.fill('abc');
        await page.getByRole('button', { name: 'Join the staff' }).click();
        await page.getByText('8 to 128 characters').last().waitFor();
        assert.equal(await password.getAttribute('aria-invalid'), 'true', 'the password is marked invalid');
        assert.ok(await gainsFocus(password), 'focus is on the password, not the button or the page');
        await password.fill('Correct-Horse-7');
        await repeat.fill('Correct-Horse-8');
        await page.getByRole('button', { name: 'Join the staff' }).click();
        await page.getByText('The two passwords differ').waitFor();
        assert.ok(await gainsFocus(repeat), 'focus is on the repeated password');
        await repeat.fill('Correct-Horse-7');
        await page.getByRole('button', { name: 'Join the staff' }).click();
        await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
        await page
          .getByRole('button', { name: /Account menu/ })
          .getByText('Grace')
          .waitFor();

        // The link works once.
        await page.goto(`/admin/accept-invitation?token=${encodeURIComponent(token)}`);
        await page.getByText('This invitation was already used, has expired or was revoked.').waitFor();
      },
      undefined,
      undefined,
      // The used link's preview is refused with 410 Gone, which the screen explains.
      /status of 410/,
    );
    const staff = (await owner.client.get(`/api/v1/admin/users?search=${encodeURIComponent(email)}`)).body.data[0];
    assert.deepEqual([staff.role, staff.first_name, staff.email_verified], ['ADMIN', 'Grace', true]);
  });
});
