import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { inConsole, LAPTOP, signInThroughUi, startConsole } from '../helpers/browser.js';
import { clearOfUtcMidnight } from '../helpers/clock.js';
import { checkout, sellableVariant, shopper } from '../helpers/commerce.js';
import { signInAs, signUp, type Client } from '../helpers/factories.js';

await clearOfUtcMidnight();
const { t, browser } = await startConsole({ RATE_LIMIT_REGISTER: '0' });

/** The dashboard's new-customers figure for a period, as the API gives it. */
async function newCustomers(admin: Client, period: string): Promise<number> {
  const response = await admin.get(`/api/v1/admin/stats?period=${period}`);
  assert.equal(response.status, 200, response.text);
  return response.body.data.new_customers;
}

describe('console: the dashboard', () => {
  test('every figure links to the list behind it, and the lists count the same orders as the figures, whatever the browser time zone', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const { variantId, productId } = await sellableVariant(admin.client, { name: 'Enamel jug', price: '30.00', stock: 50 });
    const order = async () => {
      const buyer = await shopper(t, [{ variantId, quantity: 1 }]);
      const placed = await checkout(buyer.client, buyer.addressId);
      assert.equal(placed.status, 201, placed.text);
      return placed.body.data as { public_id: string; order_number: string };
    };
    const [now, lastNight, weekAgo, justOutside] = [await order(), await order(), await order(), await order()];
    // Placed at the edges of the figures' ranges: a minute before today's UTC midnight, and just inside
    // and just outside the last 7 × 24 hours. A list of local days or whole UTC days would get them wrong.
    const midnight = new Date(new Date().toISOString().slice(0, 10) + 'T00:00:00Z').getTime();
    const moves: [string, number][] = [
      [lastNight.public_id, midnight - 60_000],
      [weekAgo.public_id, Date.now() - 7 * 86_400_000 + 3_600_000],
      [justOutside.public_id, Date.now() - 7 * 86_400_000 - 60_000],
    ];
    // placed_at is never updated by the app (its column type says so); the test moves it in SQL.
    for (const [id, at] of moves) await sql`UPDATE orders SET placed_at = ${new Date(at)} WHERE public_id = ${id}`.execute(t.db);
    // Two more customers: one who joined just inside the last 7 days, one just outside.
    const [joinedThisWeek, joinedBefore] = [await signUp(t), await signUp(t)];
    for (const [who, at] of [
      [joinedThisWeek, Date.now() - 7 * 86_400_000 + 3_600_000],
      [joinedBefore, Date.now() - 7 * 86_400_000 - 60_000],
    ] as const) {
      await sql`UPDATE users SET created_at = ${new Date(at)} WHERE public_id = ${who.user.public_id}`.execute(t.db);
    }

    // Kiritimati is 14 hours ahead of UTC: its "today" is never the UTC day at every hour.
    await inConsole(
      browser,
      t2,
      t,
      async (page) => {
        await signInThroughUi(page, admin.email, '/admin/?period=7d');
        const card = (label: string) => page.locator('.mantine-Paper-root').filter({ has: page.getByText(label, { exact: true }) });
        await card('Orders').getByText('3', { exact: true }).waitFor();
        const numbers = async () =>
          (await page.getByRole('table', { name: 'Orders' }).getByRole('link').allInnerTexts())
            .filter((text) => text.startsWith('ORD-'))
            .sort();

        await card('Orders').getByRole('link', { name: 'Orders in this period' }).click();
        await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
        assert.match(page.url(), /since=/);
        await page.getByText(/^Placed since /).waitFor();
        await page.getByText('1–3 of 3').waitFor();
        assert.deepEqual(await numbers(), [now, lastNight, weekAgo].map((o) => o.order_number).sort());

        await page.goto('/admin/?period=7d');
        for (const [label, link] of [
          ['Net revenue · 7 days', 'The orders behind it'],
          ['Average order value', 'The orders it averages'],
        ] as const) {
          assert.match((await card(label).getByRole('link', { name: link }).getAttribute('href')) ?? '', /\/admin\/orders\?since=/);
        }
        await page.getByRole('link', { name: '3 waiting for confirmation' }).click();
        await page.waitForURL(/status=PLACED/);
        await page.getByText('1–3 of 3').waitFor();

        // The new-customers figure and the list behind it count the same accounts.
        await page.goto('/admin/?period=7d');
        const joined = await newCustomers(admin.client, '7d');
        assert.ok(joined >= 5, 'the four buyers and the customer who joined this week');
        await card('New customers').getByText(String(joined), { exact: true }).waitFor();
        await card('New customers').getByRole('link', { name: 'Customers who joined' }).click();
        await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
        assert.match(page.url(), /role=CUSTOMER/);
        assert.match(page.url(), /since=/);
        await page.getByText(/^Joined since /).waitFor();
        await page.getByText(`1–${joined} of ${joined}`).waitFor();
        const accounts = page.getByRole('table', { name: 'Accounts' });
        await accounts.getByRole('cell', { name: joinedThisWeek.email }).waitFor();
        assert.equal(await accounts.getByRole('cell', { name: joinedBefore.email }).count(), 0, 'joined before the period');

        await page.goto('/admin/');
        await card('Revenue today').getByText('1 order today').waitFor();
        await card('Revenue today').getByRole('link', { name: 'Today’s orders' }).click();
        await page.getByRole('textbox', { name: 'Placed from (UTC)' }).waitFor();
        await page.getByText('1–1 of 1').waitFor();
        assert.deepEqual(await numbers(), [now.order_number]);

        await page.goto('/admin/?period=7d');
        await page.getByRole('link', { name: 'Enamel jug' }).click();
        await page.getByRole('heading', { level: 1, name: 'Enamel jug' }).waitFor();
        assert.match(page.url(), new RegExp(`/admin/products/${productId}$`));
      },
      LAPTOP,
      'Pacific/Kiritimati',
    );
  });
});
