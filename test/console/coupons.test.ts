import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inConsole, LAPTOP, signInThroughUi, startConsole } from '../helpers/browser.js';
import { checkout, sellableVariant, shopper } from '../helpers/commerce.js';
import { signInAs } from '../helpers/factories.js';

const { t, browser } = await startConsole({ RATE_LIMIT_REGISTER: '0' });

describe('console: coupons', () => {
  test('a coupon made in the console works at checkout, shows its use, can be switched off, and is deleted after a confirmation', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const { variantId } = await sellableVariant(admin.client, { price: '40.00', stock: 10 });
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Coupons' }).click();
      await page.getByRole('link', { name: 'New coupon' }).click();
      await page.getByRole('heading', { level: 1, name: 'New coupon' }).waitFor();
      await page.getByRole('textbox', { name: 'Code' }).fill('SPRING 25');
      await page.getByRole('textbox', { name: 'Percent off' }).fill('120');
      await page.getByRole('button', { name: 'Create coupon' }).click();
      await page.getByText('3 to 50 letters, digits, - or _').waitFor();
      await page.getByText('A percentage is at most 100').waitFor();
      await page.getByRole('textbox', { name: 'Code' }).fill('SPRING25');
      await page.getByRole('textbox', { name: 'Percent off' }).fill('25');
      await page.getByRole('textbox', { name: 'Uses per customer' }).fill('1');
      await page.getByRole('button', { name: 'Create coupon' }).click();
      await page.getByRole('heading', { level: 1, name: 'Coupon SPRING25' }).waitFor();

      // A customer uses it; the console shows the use.
      const buyer = await shopper(t, [{ variantId, quantity: 1 }]);
      const order = await checkout(buyer.client, buyer.addressId, { coupon_code: 'spring25' });
      assert.equal(order.status, 201, order.text);
      assert.equal(order.body.data.discount_total, '10.00');
      await page.reload();
      await page.getByRole('table', { name: 'Orders that used SPRING25' }).getByText(buyer.email).waitFor();

      // Switching off applies at once and can be undone from the notice.
      const status = async () => (await admin.client.get('/api/v1/admin/coupons?search=SPRING25')).body.data[0].status;
      await page.getByRole('button', { name: 'Switch off' }).click();
      const notice = page.getByRole('alert').filter({ hasText: 'SPRING25 is off: checkout refuses it' });
      await notice.waitFor();
      await notice.hover(); // holds it open: it closes itself after 10 s, which a loaded machine can take
      await page.getByRole('button', { name: 'Switch on' }).waitFor();
      assert.equal(await status(), 'INACTIVE');
      await notice.getByRole('button', { name: 'Undo' }).click();
      await page.getByText('SPRING25 is on again').waitFor();
      await page.getByRole('button', { name: 'Switch off' }).waitFor();
      assert.equal(await status(), 'ACTIVE');

      await page.getByRole('switch', { name: 'Active' }).uncheck();
      await page.getByRole('button', { name: 'Save coupon' }).click();
      await page.getByText('Coupon SPRING25 saved').waitFor();

      // A code in use is refused next to the Code field.
      await page.goto('/admin/coupons/new');
      await page.getByRole('textbox', { name: 'Code' }).fill('spring25');
      await page.getByRole('textbox', { name: 'Percent off' }).fill('5');
      await page.getByRole('button', { name: 'Create coupon' }).click();
      await page.getByText('Another coupon already uses this code').waitFor();

      const list = await admin.client.get('/api/v1/admin/coupons?search=SPRING');
      assert.deepEqual(
        list.body.data.map((c: any) => [c.code, c.discount_value, c.usage_limit_per_user, c.times_used, c.status]),
        [['SPRING25', '25.00', 1, 1, 'INACTIVE']],
      );

      // Deleted after a confirmation that says what stays; the console goes back to the list.
      await page.goto(`/admin/coupons/${list.body.data[0].public_id}`);
      await page.getByRole('button', { name: 'Delete' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete SPRING25?' });
      await confirm.getByText(/orders that used it keep their discount/).waitFor();
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('Coupon deleted; its usage history stays').waitFor();
      await page.waitForURL(/\/admin\/coupons(\?|$)/);
    });
    assert.equal((await admin.client.get('/api/v1/admin/coupons?search=SPRING')).body.data.length, 0);
  });

  test('a coupon’s page says how often it was used, 0 included, and of how many uses when it has a limit', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const { variantId } = await sellableVariant(admin.client, { price: '40.00', stock: 10 });
    const create = async (body: Record<string, unknown>) => {
      const created = await admin.client.post('/api/v1/admin/coupons', { discount_type: 'PERCENTAGE', discount_value: '10', ...body });
      assert.equal(created.status, 201, created.text);
      return created.body.data.public_id as string;
    };
    const unlimited = await create({ code: 'ANYTIME10' });
    const limited = await create({ code: 'TENUSES10', usage_limit: 10 });
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email, `/admin/coupons/${unlimited}`);
      await page.getByRole('heading', { level: 1, name: 'Coupon ANYTIME10' }).waitFor();
      await page.getByText('Used 0 times', { exact: true }).waitFor();
      await page.goto(`/admin/coupons/${limited}`);
      await page.getByText('Used 0 of 10 times', { exact: true }).waitFor();

      const buyer = await shopper(t, [{ variantId, quantity: 1 }]);
      assert.equal((await checkout(buyer.client, buyer.addressId, { coupon_code: 'TENUSES10' })).status, 201);
      await page.reload();
      await page.getByText('Used 1 of 10 times', { exact: true }).waitFor();
    });
  });

  test('start and end times are typed and shown in UTC, as the inputs say, whatever the browser’s time zone', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    await inConsole(
      browser,
      t2,
      t,
      async (page) => {
        await signInThroughUi(page, admin.email, '/admin/coupons/new');
        await page.getByRole('textbox', { name: 'Code' }).fill('NEWYEAR31');
        await page.getByRole('textbox', { name: 'Percent off' }).fill('15');
        await page.getByLabel('Starts (UTC)').fill('2031-01-01T10:00');
        await page.getByLabel('Ends (UTC)').fill('2031-01-02T09:30');
        await page.getByRole('button', { name: 'Create coupon' }).click();
        await page.getByRole('heading', { level: 1, name: 'Coupon NEWYEAR31' }).waitFor();
        // Read back as typed, in UTC.
        assert.equal(await page.getByLabel('Starts (UTC)').inputValue(), '2031-01-01T10:00');
        await page.goto('/admin/coupons?q=NEWYEAR31');
        await page
          .getByRole('table', { name: 'Coupons' })
          .getByText(/Jan 2, 2031.*9:30.*UTC/)
          .waitFor();
      },
      LAPTOP,
      // Auckland is 13 hours ahead of UTC in January: read in the browser's zone, 10:00 would be 21:00 the day before.
      'Pacific/Auckland',
    );
    const coupon = (await admin.client.get('/api/v1/admin/coupons?search=NEWYEAR31')).body.data[0];
    assert.deepEqual([coupon.starts_at, coupon.expires_at], ['2031-01-01T10:00:00.000Z', '2031-01-02T09:30:00.000Z']);
  });
});
