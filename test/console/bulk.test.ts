import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inConsole, signInThroughUi, startConsole } from '../helpers/browser.js';
import { inventoryOf, sellableVariant, tag } from '../helpers/commerce.js';
import { signInAs, signUp } from '../helpers/factories.js';

const { t, browser } = await startConsole({ RATE_LIMIT_REGISTER: '0' });

describe('console: bulk actions', () => {
  test('products picked on the list are archived together; one deleted meanwhile is named as refused, with the reason', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const mark = tag();
    const made: { productId: string }[] = [];
    for (const name of ['Ash bowl', 'Beech spoon', 'Cherry board'])
      made.push(await sellableVariant(admin.client, { name: `${name} ${mark}` }));

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email, `/admin/products?q=none-${mark}`);
      const table = page.getByRole('table', { name: 'Products' });
      const selectAll = table.getByRole('checkbox', { name: 'Select every row on this page' });
      await page.getByText('No products match.').waitFor();
      assert.equal(await selectAll.isDisabled(), true, 'nothing to select on an empty page');
      const search = page.getByRole('searchbox', { name: 'Search', exact: true });
      await search.fill(mark);
      await search.press('Enter');
      await page.getByText('1–3 of 3').waitFor();
      await selectAll.check();
      const bar = page.getByRole('region', { name: 'Bulk actions' });
      await bar.getByText('3 products selected').waitFor();
      await table.getByRole('checkbox', { name: `Select Beech spoon ${mark}` }).uncheck();
      await bar.getByText('2 products selected').waitFor();
      await table.getByRole('checkbox', { name: `Select Beech spoon ${mark}` }).check();

      // Someone deletes one of them while the list is open.
      assert.equal((await admin.client.delete(`/api/v1/admin/products/${made[2]!.productId}`)).status, 204);

      await bar.getByRole('button', { name: 'Set status' }).click();
      await page.getByRole('menuitem', { name: 'Archived' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Make archived' }).click();
      const summary = page.getByRole('dialog', { name: '2 made archived, 1 refused' });
      await summary.getByRole('list', { name: 'Refused' }).getByText(`Cherry board ${mark}`).waitFor();
      await summary.getByText(/not found/i).waitFor();
      await page.keyboard.press('Escape');
      await bar.waitFor({ state: 'detached' });
    });
    const statuses = await Promise.all(
      made.map(async (m) => (await admin.client.get(`/api/v1/admin/products/${m.productId}`)).body.data.status),
    );
    assert.deepEqual(statuses.slice(0, 2), ['ARCHIVED', 'ARCHIVED']);
  });

  test('products picked on the list are deleted together, after a confirmation that says what happens', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const mark = tag();
    const kept = await sellableVariant(admin.client, { name: `Kept teapot ${mark}` });
    const gone = [
      await sellableVariant(admin.client, { name: `Old teapot ${mark}` }),
      await sellableVariant(admin.client, { name: `Odd teapot ${mark}` }),
    ];

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email, `/admin/products?q=${mark}`);
      const table = page.getByRole('table', { name: 'Products' });
      await page.getByText('1–3 of 3').waitFor();
      for (const name of ['Old', 'Odd']) await table.getByRole('checkbox', { name: `Select ${name} teapot ${mark}` }).check();
      await page.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Delete' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete 2 products?' });
      await confirm.getByText(/stock records leave Inventory/).waitFor();
      await confirm.getByRole('button', { name: 'Delete 2 products' }).click();
      await page.getByText('2 deleted').waitFor();
      await page.getByText('1–1 of 1').waitFor();
      await table.getByRole('row', { name: new RegExp(`Kept teapot ${mark}`) }).waitFor();
    });
    const left = (await admin.client.get(`/api/v1/admin/products?search=${mark}`)).body.data as any[];
    assert.deepEqual(
      left.map((p) => p.public_id),
      [kept.productId],
    );
    const all = (await admin.client.get(`/api/v1/admin/products?search=${mark}&include_deleted=true`)).body.data as any[];
    assert.deepEqual(
      gone.map((g) => Boolean(all.find((p) => p.public_id === g.productId)?.deleted_at)),
      [true, true],
    );
  });

  test('stock of several records is adjusted with one reason, a change per record, each movement with that reason', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const mark = tag();
    const jug = await sellableVariant(admin.client, { name: `Jug ${mark}`, stock: 4 });
    const cup = await sellableVariant(admin.client, { name: `Cup ${mark}`, stock: 10 });

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email, `/admin/inventory?q=${mark}`);
      const table = page.getByRole('table', { name: 'Inventory records' });
      await page.getByText('1–2 of 2').waitFor();
      await table.getByRole('checkbox', { name: 'Select every row on this page' }).check();
      await page.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Adjust stock' }).click();
      const dialog = page.getByRole('dialog', { name: 'Adjust stock' });
      await dialog.getByRole('textbox', { name: 'Change for every record' }).fill('-5');
      // The jug has 4: taking 5 is refused at its row as it is typed, and the cup's row says what it leaves.
      await dialog.getByText('On-hand quantity cannot go below zero (it would be -1)').waitFor();
      await dialog
        .getByRole('row', { name: new RegExp(`Cup ${mark}`) })
        .getByRole('cell', { name: '5', exact: true })
        .waitFor();
      await dialog.getByRole('button', { name: 'Adjust 2 records' }).click();
      await dialog.getByText('Say why, for the movements and the audit log').waitFor();
      await dialog.getByRole('textbox', { name: 'Reason' }).fill('Stock count');
      await dialog.getByRole('button', { name: 'Adjust 2 records' }).click();
      await dialog.getByText('On-hand quantity cannot go below zero (it would be -1)').waitFor();
      const jugSku = (await admin.client.get(`/api/v1/admin/inventory/${jug.variantId}`)).body.data.sku as string;
      await dialog.getByRole('textbox', { name: `Change of ${jugSku}` }).fill('-4');
      await dialog.getByRole('button', { name: 'Adjust 2 records' }).click();
      await page.getByText('2 records adjusted').waitFor();
      await table
        .getByRole('row', { name: new RegExp(`Cup ${mark}`) })
        .getByRole('cell', { name: '5', exact: true })
        .first()
        .waitFor();
    });
    assert.equal((await inventoryOf(t, jug.variantId)).quantity_on_hand, 0);
    assert.equal((await inventoryOf(t, cup.variantId)).quantity_on_hand, 5);
    const movements = (await admin.client.get(`/api/v1/admin/inventory/${cup.variantId}/movements`)).body.data as any[];
    assert.deepEqual([movements[0].kind, movements[0].delta_on_hand, movements[0].reason], ['ADJUST', -5, 'Stock count']);
  });

  test('reviews picked in the queue are approved together', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const { productId } = await sellableVariant(admin.client, { name: 'Felt slippers' });
    const titles = [`Cosy ${tag()}`, `Warm ${tag()}`];
    for (const title of titles) {
      const { client } = await signUp(t);
      const review = await client.post('/api/v1/reviews', { product_public_id: productId, rating: 5, title, comment: 'Lovely.' });
      assert.equal(review.status, 201, review.text);
    }
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email, '/admin/reviews');
      // Every review on the page at once, and none again.
      await page.getByRole('checkbox', { name: `Select the review "${titles[0]}"` }).waitFor();
      const onPage = await page.getByRole('checkbox', { name: /^Select the review / }).count();
      const all = page.getByRole('checkbox', { name: 'Select every review on this page' });
      await all.check();
      await page.getByRole('region', { name: 'Bulk actions' }).getByText(`${onPage} reviews selected`).waitFor();
      await all.uncheck();
      await page.getByRole('region', { name: 'Bulk actions' }).waitFor({ state: 'detached' });
      for (const title of titles) await page.getByRole('checkbox', { name: `Select the review "${title}"` }).check();
      await page.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Approve selected' }).click();
      await page.getByText('2 approved').waitFor();
      for (const title of titles) await page.getByRole('article', { name: title }).waitFor({ state: 'detached' });
    });
    const approved = (await t.client().get(`/api/v1/products/${productId}/reviews`)).body.data as any[];
    assert.deepEqual(approved.map((r) => r.title).sort(), [...titles].sort());
  });
});
