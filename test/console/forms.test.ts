import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { gainsFocus, inConsole, signInThroughUi, startConsole } from '../helpers/browser.js';
import { checkout, inventoryOf, sellableVariant, shopper, tag } from '../helpers/commerce.js';
import { signInAs } from '../helpers/factories.js';

const { t, browser } = await startConsole({ RATE_LIMIT_REGISTER: '0' });

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

  test('Back while the question is open is refused, and Leave goes where the first move asked; the screen left asks nothing more', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const product = (await admin.client.post('/api/v1/admin/products', { name: 'Oak crate' })).body.data.public_id as string;
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email);
      await page.goto('/admin/products');
      await page.getByRole('link', { name: 'Oak crate' }).click();
      await page.getByRole('heading', { level: 1, name: 'Oak crate' }).waitFor();
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Oak crate, tall');
      const main = page.getByRole('navigation', { name: 'Main' });
      await main.getByRole('link', { name: 'Inventory' }).click();
      const ask = page.getByRole('dialog', { name: 'Leave without saving?' });
      await ask.waitFor();

      // Back with the question open: its popstate, then the step forward that puts the address back.
      await page.evaluate(
        () =>
          new Promise<void>((resolve) => {
            const w = globalThis as any;
            let pops = 0;
            const counted = () => {
              if (++pops === 2) {
                w.removeEventListener('popstate', counted);
                resolve();
              }
            };
            w.addEventListener('popstate', counted);
            w.history.back();
            w.setTimeout(resolve, 3000);
          }),
      );
      assert.match(page.url(), new RegExp(`/admin/products/${product}$`), 'Back was refused');
      assert.equal(await page.getByRole('dialog').count(), 1, 'one question');

      await ask.getByRole('button', { name: 'Leave without saving' }).click();
      await page.getByRole('heading', { level: 1, name: 'Inventory' }).waitFor();
      assert.match(page.url(), /\/admin\/inventory$/);
      // Answered, the question closes (it fades out on its own time, which a loaded machine stretches).
      await ask.waitFor({ state: 'detached' });
      // The history is whole: Back is the product, opened again without the dropped edit and without a question.
      await page.goBack();
      await page.getByRole('heading', { level: 1, name: 'Oak crate' }).waitFor();
      assert.equal(await page.getByRole('textbox', { name: 'Name', exact: true }).inputValue(), 'Oak crate');
      assert.equal(await ask.count(), 0, 'no question on the way back');
    });
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
      assert.ok(await gainsFocus(percent), 'the first field in error, not the button');

      await code.fill('TAKEN10');
      await percent.fill('15');
      await create.click();
      await page.getByText('Another coupon already uses this code').waitFor();
      assert.ok(await gainsFocus(code), 'the field the API refused');
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

  test('the stock record asks before leaving with what is typed in its forms, once for all of them; applied, it leaves freely', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const name = `Guarded crate ${tag()}`;
    const { variantId } = await sellableVariant(admin.client, { name, stock: 5 });
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email, `/admin/inventory/${variantId}`);
      await page.getByRole('heading', { level: 1, name }).waitFor();
      const inventory = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inventory' });
      const ask = page.getByRole('dialog', { name: 'Leave without saving?' });
      const change = page.getByRole('textbox', { name: /^Change/ });

      await change.fill('4');
      await inventory.click();
      await ask.getByRole('button', { name: 'Stay' }).click();
      await ask.waitFor({ state: 'detached' });
      assert.equal(await change.inputValue(), '4', 'the adjustment is still typed');

      // Applied, the adjustment's form is empty again: only the reservation and reorder level have changes, and leaving asks once.
      await page.getByRole('button', { name: 'Adjust stock' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Apply' }).click();
      await page.getByText('On hand is now 9').waitFor();
      await page.getByRole('textbox', { name: /^Reserve/ }).fill('1');
      await page.getByRole('textbox', { name: 'Reorder level' }).fill('3');
      await inventory.click();
      await ask.getByRole('button', { name: 'Leave without saving' }).click();
      // A second question would hold the move until answered: the list shows after one.
      await page.getByRole('heading', { level: 1, name: 'Inventory' }).waitFor();
      await ask.waitFor({ state: 'detached' });
    });
    assert.deepEqual(await inventoryOf(t, variantId), { quantity_on_hand: 9, quantity_reserved: 0 });
  });

  test('a form in a modal asks before dropping its changes, however the modal is closed; Keep editing keeps them', async (t2) => {
    const owner = await signInAs(t, 'SUPER_ADMIN');
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, owner.email);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Money' }).click();
      await page.getByRole('heading', { level: 1, name: 'Money' }).waitFor();
      const open = page.getByRole('button', { name: 'Record expense' }).first();
      const dialog = page.getByRole('dialog', { name: 'Record an expense' });
      const description = dialog.getByRole('textbox', { name: 'Description' });
      const question = dialog.getByRole('alert').filter({ hasText: 'Discard your changes?' });

      // Untouched, Escape closes it at once, and focus goes back to the button that opened it.
      await open.click();
      await description.waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await open.and(page.locator(':focus')).waitFor();

      await open.click();
      await description.fill('Bubble wrap');
      const closings: [string, () => Promise<void>][] = [
        ['Escape', () => page.keyboard.press('Escape')],
        ['the close button', () => dialog.getByRole('button', { name: 'Close' }).click()],
        // The overlay's top-left corner, outside the modal.
        ['a click outside', () => page.mouse.click(5, 5)],
        ['Cancel', () => dialog.getByRole('button', { name: 'Cancel' }).click()],
      ];
      for (const [how, close] of closings) {
        await close();
        await question.waitFor();
        assert.equal(await page.getByRole('dialog').count(), 1, `${how}: asked in the modal, not in one over it`);
        await dialog.getByRole('button', { name: 'Keep editing' }).click();
        await question.waitFor({ state: 'detached' });
        assert.equal(await description.inputValue(), 'Bubble wrap', `${how}: the form is as it was`);
      }
      // Escape while asked is Keep editing too.
      await page.keyboard.press('Escape');
      await question.waitFor();
      await page.keyboard.press('Escape');
      await question.waitFor({ state: 'detached' });
      assert.equal(await description.inputValue(), 'Bubble wrap');

      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.getByRole('button', { name: 'Discard changes' }).click();
      await dialog.waitFor({ state: 'detached' });
      await open.click();
      assert.equal(await description.inputValue(), '', 'discarded, the next one starts empty');
    });
    const expenses = (await owner.client.get('/api/v1/admin/expenses?limit=100')).body.data as { description: string }[];
    assert.ok(!expenses.some((e) => e.description === 'Bubble wrap'), 'nothing recorded');
  });

  test("a move to another screen with an order's note typed in its step's modal asks in the modal, not over it", async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const { variantId } = await sellableVariant(admin.client, { name: `Noted jug ${tag()}` });
    const buyer = await shopper(t, [{ variantId, quantity: 1 }]);
    const placed = await checkout(buyer.client, buyer.addressId);
    assert.equal(placed.status, 201, placed.text);
    const { public_id: orderId, order_number: number } = placed.body.data;
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email);
      // Reached through the console, so the browser's Back is a move inside it.
      await page.goto(`/admin/orders?q=${number}`);
      await page.getByRole('link', { name: number, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: `Order ${number}` }).waitFor();
      await page.getByRole('button', { name: 'Confirm' }).click();
      const dialog = page.getByRole('dialog', { name: `Confirm ${number}?` });
      const note = dialog.getByRole('textbox', { name: 'Note (internal)' });
      await note.fill('Checked the address by phone');

      await page.goBack();
      await dialog.getByRole('alert').filter({ hasText: 'Discard your changes?' }).waitFor();
      assert.equal(await page.getByRole('dialog').count(), 1, 'asked in the modal, which keeps its form');
      await dialog.getByRole('button', { name: 'Keep editing' }).click();
      await page.waitForURL(new RegExp(`/admin/orders/${orderId}$`));
      assert.equal(await note.inputValue(), 'Checked the address by phone');

      await page.goBack();
      await dialog.getByRole('button', { name: 'Discard changes' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    });
    assert.equal((await admin.client.get(`/api/v1/admin/orders/${orderId}`)).body.data.status, 'PLACED');
  });
});
