import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inConsole, signInThroughUi, startConsole } from '../helpers/browser.js';
import { clearOfUtcMidnight } from '../helpers/clock.js';
import { signInAs } from '../helpers/factories.js';

await clearOfUtcMidnight();
const { t, browser } = await startConsole();

const thisMonth = () => new Date().toISOString().slice(0, 7);

describe('console: money', () => {
  test('a SUPER_ADMIN records an expense and sees it in the P&L; a wrong amount is refused next to the field', async (t2) => {
    const { email, client } = await signInAs(t, 'SUPER_ADMIN');
    const month = thisMonth();
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, email);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Money' }).click();
      await page.getByRole('heading', { level: 1, name: 'Money' }).waitFor();
      const pnl = page.getByRole('table', { name: 'Profit and loss by month' });
      const row = pnl.getByRole('row').filter({ hasText: month });
      await row.waitFor();
      assert.match(await row.innerText(), /\$0\.00\s*\$0\.00\s*$/, 'no expenses, no profit yet');

      await page.getByRole('button', { name: 'Record expense' }).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox', { name: 'Description' }).fill('Packing tape');
      await dialog.getByRole('textbox', { name: 'Amount' }).fill('12.345');
      await dialog.getByRole('button', { name: 'Record expense' }).click();
      await dialog.getByText('An amount above zero, like 49.90').waitFor();
      await dialog.getByRole('textbox', { name: 'Amount' }).fill('123.45');
      await dialog.getByRole('button', { name: 'Record expense' }).click();
      await dialog.waitFor({ state: 'detached' });

      await page.getByRole('table', { name: 'Operating expenses' }).getByRole('cell', { name: 'Packing tape', exact: true }).waitFor();
      await row.filter({ hasText: '-$123.45' }).waitFor();
      assert.match(await row.innerText(), /\$123\.45\s*-\$123\.45\s*$/, 'expenses and net profit of the month');
    });

    const pnl = await client.get(`/api/v1/admin/analytics/pnl?from=${month}-01&to=${new Date().toISOString().slice(0, 10)}`);
    assert.equal(pnl.body.data.total.operating_expenses, '123.45');
    const expenses = await client.get('/api/v1/admin/expenses');
    assert.deepEqual(
      expenses.body.data.map((e: any) => [e.description, e.category, e.amount]),
      [['Packing tape', 'OTHER', '123.45']],
    );
  });

  test('expenses filtered by the days they were spent, in the URL; coupon performance pages', async (t2) => {
    const { email, client } = await signInAs(t, 'SUPER_ADMIN');
    for (const [description, spent_at] of [
      ['January rent', '2026-01-05'],
      ['February rent', '2026-02-10'],
      ['March rent', '2026-03-02'],
    ]) {
      assert.equal(
        (await client.post('/api/v1/admin/expenses', { description, category: 'RENT', amount: '800.00', spent_at })).status,
        201,
      );
    }
    for (let i = 0; i < 12; i++) {
      assert.equal(
        (
          await client.post('/api/v1/admin/coupons', {
            code: `PAGE${String(i).padStart(2, '0')}`,
            discount_type: 'PERCENTAGE',
            discount_value: '5',
          })
        ).status,
        201,
      );
    }
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, email, '/admin/money');
      const expenses = page.getByRole('table', { name: 'Operating expenses' });
      await expenses.getByRole('cell', { name: 'January rent', exact: true }).waitFor();
      await page.getByRole('textbox', { name: 'Spent from' }).fill('2026-02-01');
      await page.getByRole('textbox', { name: 'Spent to' }).fill('2026-02-28');
      await page.waitForURL(/spent_from=2026-02-01.*spent_to=2026-02-28|spent_to=2026-02-28.*spent_from=2026-02-01/);
      await expenses.getByRole('cell', { name: 'January rent', exact: true }).waitFor({ state: 'detached' });
      await expenses.getByRole('cell', { name: 'February rent', exact: true }).waitFor();
      // Waited for, not counted at once: the "from" filter alone (February and March) may still be on screen.
      await expenses.getByRole('cell', { name: 'March rent', exact: true }).waitFor({ state: 'detached' });

      // The same URL opens the same view.
      await page.reload();
      await expenses.getByRole('cell', { name: 'February rent', exact: true }).waitFor();
      assert.equal(await expenses.getByRole('row').count(), 2, 'the header and February');

      const coupons = page.getByRole('table', { name: 'Coupon performance' });
      await page.getByText('1–10 of 12').waitFor();
      await page.getByRole('button', { name: 'Page 2' }).click();
      await page.waitForURL(/coupon_page=2/);
      await page.getByText('11–12 of 12').waitFor();
      assert.equal(await coupons.getByRole('link').count(), 2);
      assert.match(page.url(), /spent_from=2026-02-01/, 'paging the coupons keeps the expense filters');

      // Deleting asks first, says what changes, and the row goes.
      await expenses.getByRole('button', { name: 'Delete February rent' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete this expense?' });
      await confirm.getByText(/February rent, \$800\.00 on .*The P&L of that month changes/).waitFor();
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('Expense deleted').waitFor();
      await expenses.getByRole('cell', { name: 'February rent', exact: true }).waitFor({ state: 'detached' });
    });
    const left = (await client.get('/api/v1/admin/expenses?limit=100')).body.data as any[];
    assert.equal(left.filter((e) => e.description === 'February rent').length, 0);
  });

  test('an ADMIN has no Money or Audit log link, and opening their URLs says why they do not open', async (t2) => {
    const { email } = await signInAs(t, 'ADMIN');
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, email);
      const navigation = page.getByRole('navigation', { name: 'Main' });
      assert.equal(await navigation.getByRole('link', { name: 'Money' }).count(), 0);
      for (const [path, screen] of [
        ['/admin/money', 'Money'],
        ['/admin/audit', 'Audit log'],
      ] as const) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1, name: screen }).waitFor();
        await page.getByRole('alert').getByText(`${screen} is open to super admins; your account is an admin.`).waitFor();
        assert.equal(new URL(page.url()).pathname, path, 'left where the person asked to go');
      }
      await page.getByRole('link', { name: 'Back to the dashboard' }).click();
      await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    });
  });

  test('the P&L keeps shipping income apart from the costs, and the expense category of couriers says it is a cost', async (t2) => {
    const { email } = await signInAs(t, 'SUPER_ADMIN');
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, email, '/admin/money');
      const pnl = page.getByRole('table', { name: 'Profit and loss by month' });
      await pnl.waitFor();
      const headers = (await pnl.locator('thead').getByRole('columnheader').allInnerTexts()).map((text) =>
        text.replace(/\s+/g, ' ').trim(),
      );
      assert.deepEqual(headers, [
        'Month',
        'Sales',
        'Other income',
        'Costs',
        '= Net profit',
        'Revenue',
        '− Discounts',
        '− Cost of goods',
        '= Gross profit',
        '+ Shipping income',
        '− Operating expenses',
      ]);
      await page.getByRole('combobox', { name: 'Category' }).click();
      await page.getByRole('option', { name: 'Shipping costs' }).waitFor();
      assert.equal(await page.getByRole('option', { name: 'Shipping', exact: true }).count(), 0);
    });
  });
});
