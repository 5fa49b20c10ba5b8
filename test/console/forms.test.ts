import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { inConsole, signInThroughUi, startConsole } from '../helpers/browser.js';
import { signInAs } from '../helpers/factories.js';

const { t, browser } = await startConsole();

const focused = (locator: Locator) => locator.evaluate((element) => element === (globalThis as any).document.activeElement);

async function openProduct(page: Page, productId: string, name: string): Promise<void> {
  await page.goto(`/admin/products/${productId}`);
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

describe('console: forms', () => {
  test('leaving a form with unsaved changes asks first: Stay keeps them, leaving drops them; saved changes leave freely', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const product = (await admin.client.post('/api/v1/admin/products', { name: 'Cedar box' })).body.data.public_id as string;
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email);
      // Reached through the console, so the browser's Back is a move inside it.
      await page.goto('/admin/products');
      await page.getByRole('link', { name: 'Cedar box' }).click();
      await page.getByRole('heading', { level: 1, name: 'Cedar box' }).waitFor();
      const name = page.getByRole('textbox', { name: 'Name', exact: true });
      await name.fill('Cedar box, large');
      const products = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Products' });

      await products.click();
      const ask = page.getByRole('dialog', { name: 'Leave without saving?' });
      await ask.getByRole('button', { name: 'Stay' }).click();
      await ask.waitFor({ state: 'detached' });
      assert.equal(await name.inputValue(), 'Cedar box, large', 'the edit is still there');
      assert.match(page.url(), new RegExp(`/admin/products/${product}$`));

      // The browser's back button asks the same.
      await page.goBack();
      await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Stay' }).click();
      // Back had already moved the address; Stay moves it forward again, a step that ends after the click.
      await page.waitForURL(new RegExp(`/admin/products/${product}$`));

      await products.click();
      await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Leave without saving' }).click();
      await page.getByRole('heading', { level: 1, name: 'Products' }).waitFor();

      // Saved, the same move asks nothing.
      await openProduct(page, product, 'Cedar box');
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Cedar box, small');
      await page.getByRole('button', { name: 'Save product' }).click();
      await page.getByText('Product saved').waitFor();
      await products.click();
      await page.getByRole('heading', { level: 1, name: 'Products' }).waitFor();
      assert.equal(await page.getByRole('dialog').count(), 0);
    });
    assert.equal((await admin.client.get(`/api/v1/admin/products/${product}`)).body.data.name, 'Cedar box, small');
  });

  test('a refused form moves focus to its first field in error, for its own checks and for the API’s refusal', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const taken = await admin.client.post('/api/v1/admin/coupons', { code: 'TAKEN10', discount_type: 'PERCENTAGE', discount_value: '10' });
    assert.equal(taken.status, 201, taken.text);
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email, '/admin/coupons/new');
      const code = page.getByRole('textbox', { name: 'Code' });
      const percent = page.getByRole('textbox', { name: 'Percent off' });
      const create = page.getByRole('button', { name: 'Create coupon' });

      await code.fill('OK-CODE');
      await create.click();
      await page.getByText('An amount above zero').waitFor();
      assert.ok(await focused(percent), 'the first field in error, not the button');

      await code.fill('TAKEN10');
      await percent.fill('15');
      await create.click();
      await page.getByText('Another coupon already uses this code').waitFor();
      assert.ok(await focused(code), 'the field the API refused');
    });
  });

  test('notices never pile up over the screen: at most three at once', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    for (const [name, position] of [
      ['Alder', 0],
      ['Birch', 10],
      ['Cedar', 20],
      ['Douglas', 30],
      ['Elm', 40],
    ] as const) {
      assert.equal((await admin.client.post('/api/v1/admin/categories', { name, position })).status, 201);
    }
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email, '/admin/categories');
      const tree = page.getByRole('tree', { name: 'Category tree' });
      // Elm moves up to the top, one place at a time: four notices, each with its Undo.
      for (let place = 4; place >= 1; place--) {
        await page.getByRole('button', { name: 'Move Elm up' }).click();
        await tree.locator(`[role="treeitem"]:nth-child(${place})[aria-label="Elm"]`).waitFor();
      }
      await page.getByRole('button', { name: 'Move Elm down' }).click();
      await tree.locator('[role="treeitem"]:nth-child(2)[aria-label="Elm"]').waitFor();
      const notices = page.locator('.mantine-Notification-root');
      assert.ok((await notices.count()) <= 3, `${await notices.count()} notices on screen`);
    });
  });
});
