import assert from 'node:assert/strict';
import { text } from 'node:stream/consumers';
import { describe, test } from 'node:test';
import type { Download, Page } from 'playwright-core';
import path from 'node:path';
import { inConsole, keepScreenshot, RESULTS_DIR, signInThroughUi, startConsole } from '../helpers/browser.js';
import { checkout, sellableVariant, shopper, tag } from '../helpers/commerce.js';
import { signInAs } from '../helpers/factories.js';

const { t, browser } = await startConsole({ RATE_LIMIT_REGISTER: '0' });

/** Picks `csv` as the import's file, as a person choosing it from disk would. */
async function pickFile(page: Page, name: string, csv: string) {
  await page
    .getByRole('region', { name: 'Import products, variants and stock' })
    .locator('input[type=file]')
    .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
}

/** The import screen as it is now, for a person to look at (TEST_SCREENSHOTS=1). */
const shot = (page: Page, name: string) => keepScreenshot(page, path.join(RESULTS_DIR, 'transfer', `${name}.png`));

/** The file a click makes the browser download, read back over the shared browser's connection. */
async function downloaded(page: Page, click: () => Promise<void>): Promise<{ file: Download; csv: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  return { file, csv: await text(await file.createReadStream()) };
}

describe('console: import and export', () => {
  test('an import is checked first, each refused row shown with its reason; the valid rows are imported; a stock count adjusts with its reason', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const mark = tag();
    const slug = `mug-${mark.toLowerCase()}`;
    const sku = (size: string) => `MUG-${mark}-${size}`;
    const products = [
      'product_slug,product_name,product_status,sku,variant_name,options,price,quantity_on_hand',
      `${slug},Mug ${mark},ACTIVE,${sku('S')},Small,size=S,12.00,5`,
      `${slug},,,${sku('L')},Large,size=L,15.00,3`,
      `${slug},,,${sku('XL')},Huge,size=XL,twelve,1`,
    ].join('\r\n');

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Import and export' }).click();
      await page.getByRole('heading', { level: 1, name: 'Import and export' }).waitFor();

      await pickFile(page, 'mugs.csv', products);
      await page.getByRole('button', { name: 'Check the file' }).click();
      const check = page.getByRole('region', { name: 'Check of the file' });
      await check.getByText('mugs.csv: 3 rows, 2 valid, 1 refused').waitFor();
      const refused = check.getByRole('table', { name: 'Refused rows' }).getByRole('row').nth(1);
      const priceRule = 'must be a price like 19.99 (a dot before the cents, no currency sign)';
      assert.deepEqual(await refused.getByRole('cell').allInnerTexts(), ['4', sku('XL'), 'price', priceRule]);
      // Checking wrote nothing.
      assert.equal((await admin.client.get(`/api/v1/admin/search?q=${sku('S')}`)).body.data.exact, null);

      // The whole file only if nothing is refused, the choice it starts on: it cannot import here, and says why.
      assert.equal(await check.getByRole('radio', { name: 'The whole file, only if no row is refused' }).isChecked(), true);
      const whole = check.getByRole('button', { name: 'Import 3 rows' });
      assert.equal(await whole.isDisabled(), true);
      assert.equal(
        await whole.getAttribute('aria-describedby').then((id) => page.locator(`[id="${id}"]`).innerText()),
        'Fix the 1 refused row, or choose to import only the rows that pass.',
      );
      await shot(page, 'import-check-whole-file');
      await check.getByRole('radio', { name: 'The rows that pass; refused rows are left out' }).check();
      await check.getByRole('button', { name: 'Import the 2 valid rows' }).click();
      const done = page.getByRole('status').filter({ hasText: 'Imported' });
      await done.getByText('Products: 1 created, 0 updated').waitFor();
      await done.getByText('Variants: 2 created, 0 updated').waitFor();
      await done.getByText('1 refused row was left out; they are listed below.').waitFor();

      // The row left out stays in view with its reason, and downloads as a file to fix and import back.
      const leftOut = page.getByRole('region', { name: 'Rows left out' });
      assert.deepEqual(
        await leftOut.getByRole('table', { name: 'Refused rows' }).getByRole('row').nth(1).getByRole('cell').allInnerTexts(),
        ['4', sku('XL'), 'price', priceRule],
      );
      await shot(page, 'import-done-rows-left-out');
      const refusedFile = await downloaded(page, () => leftOut.getByRole('button', { name: 'Download the refused rows' }).click());
      assert.equal(refusedFile.file.suggestedFilename(), 'mugs-refused.csv');
      assert.equal(
        refusedFile.csv,
        [
          'product_slug,product_name,product_status,sku,variant_name,options,price,quantity_on_hand,refused_because',
          `${slug},,,${sku('XL')},Huge,size=XL,twelve,1,"price: ${priceRule}"`,
          '',
        ].join('\r\n'),
      );
      await pickFile(page, 'mugs-refused.csv', refusedFile.csv.replace(',twelve,', ',18.00,'));
      await page.getByRole('button', { name: 'Check the file' }).click();
      await check.getByText('mugs-refused.csv: 1 row, 1 valid, 0 refused').waitFor();
      await check.getByRole('button', { name: 'Import 1 row' }).click();
      await done.getByText('Variants: 1 created, 0 updated').waitFor();

      // A warehouse count: only the quantities, with the count's name as the reason.
      await pickFile(page, 'count.csv', `sku,quantity_on_hand\r\n${sku('S')},9\r\n${sku('L')},3\r\n`);
      await page.getByRole('textbox', { name: 'Reason' }).fill(`Count ${mark}`);
      await page.getByRole('button', { name: 'Check the file' }).click();
      await check.getByText('count.csv: 2 rows, 2 valid, 0 refused').waitFor();
      // The count is previewed: the SKU whose quantity changes, from what to what; the unchanged one is not listed.
      const changes = check.getByRole('table', { name: 'Stock counts that change (1)' });
      assert.deepEqual(await changes.getByRole('row').nth(1).getByRole('cell').allInnerTexts(), [sku('S'), '5', '9', '+4']);
      assert.equal(await changes.getByRole('row').count(), 2);
      await shot(page, 'import-stock-count-preview');
      await check.getByRole('button', { name: 'Import 2 rows' }).click();
      await done.getByText('Stock records: 0 created, 1 updated').waitFor();
    });

    const found = (await admin.client.get(`/api/v1/admin/search?q=${sku('S')}`)).body.data.exact;
    const product = (await admin.client.get(`/api/v1/admin/products/${found.product_public_id}`)).body.data;
    assert.deepEqual(
      product.variants.map((v: any) => [v.sku, v.price, v.inventory.quantity_on_hand]),
      [
        [sku('S'), '12.00', 9],
        [sku('L'), '15.00', 3],
        [sku('XL'), '18.00', 1],
      ],
    );
    const movements = (await admin.client.get(`/api/v1/admin/inventory/${product.variants[0].public_id}/movements`)).body.data as any[];
    assert.deepEqual([movements[0].kind, movements[0].delta_on_hand, movements[0].reason], ['ADJUST', 4, `Count ${mark}`]);
  });

  test('a file of many mistakes lists the first 200 refusals and says how many more the download holds', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const mark = tag();
    const rows = Array.from(
      { length: 205 },
      (_, i) => `tee-${mark.toLowerCase()},Tee ${mark},ACTIVE,TEE-${mark}-${i},Size ${i},size=${i},cheap,1`,
    );
    const csv = ['product_slug,product_name,product_status,sku,variant_name,options,price,quantity_on_hand', ...rows].join('\r\n');
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email, '/admin/import-export');
      await page.getByRole('heading', { level: 1, name: 'Import and export' }).waitFor();
      await pickFile(page, 'tees.csv', csv);
      await page.getByRole('button', { name: 'Check the file' }).click();
      const check = page.getByRole('region', { name: 'Check of the file' });
      await check.getByText('tees.csv: 205 rows, 0 valid, 205 refused').waitFor();
      await check.getByText('And 5 more; the download below has every one.').waitFor();
      assert.equal(await check.getByRole('table', { name: 'Refused rows' }).getByRole('row').count(), 201, 'a header and 200 rows');
      const { csv: refused } = await downloaded(page, () => check.getByRole('button', { name: 'Download the refused rows' }).click());
      assert.equal(refused.trim().split(/\r?\n/).length, 206, 'the header and every refused row');
    });
  });

  test('products and orders are exported as whole CSV files, filtered, with the row count said', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const mark = tag();
    const { variantId } = await sellableVariant(admin.client, { name: `Export jug ${mark}`, stock: 20 });
    const sku = (await admin.client.get(`/api/v1/admin/inventory/${variantId}`)).body.data.sku as string;
    const placed: string[] = [];
    for (let i = 0; i < 3; i++) {
      const buyer = await shopper(t, [{ variantId, quantity: 1 }]);
      placed.push((await checkout(buyer.client, buyer.addressId)).body.data.public_id);
    }
    assert.equal((await admin.client.patch(`/api/v1/admin/orders/${placed[0]}`, { status: 'CANCELLED' })).status, 200);
    const allProducts = (await admin.client.get('/api/v1/admin/products?limit=1')).body.meta.total as number;

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email, '/admin/import-export');
      const productsCard = page.getByRole('region', { name: 'Export products' });
      const products = await downloaded(page, () => productsCard.getByRole('button', { name: 'Export products' }).click());
      assert.equal(products.file.suggestedFilename(), 'products.csv');
      const lines = products.csv.trim().split(/\r\n/);
      assert.match(lines[0]!, /^product_slug,product_name,/);
      assert.ok(lines.some((line) => line.includes(sku)));
      await page.getByText(/^products\.csv: [\d,]+ rows?$/).waitFor();
      assert.ok(lines.length - 1 >= allProducts);

      const ordersCard = page.getByRole('region', { name: 'Export orders' });
      await ordersCard.getByRole('combobox', { name: 'Status' }).click();
      await page.getByRole('option', { name: 'Placed', exact: true }).click();
      const orders = await downloaded(page, () => ordersCard.getByRole('button', { name: 'Export orders' }).click());
      const rows = orders.csv.trim().split(/\r\n/).slice(1);
      assert.ok(!rows.some((row) => row.includes('CANCELLED')), 'the cancelled order is filtered out');
      assert.equal(rows.filter((row) => placed.slice(1).some((id) => row.includes(id))).length, 2);
      await page.getByText(`orders.csv: ${rows.length} ${rows.length === 1 ? 'row' : 'rows'}`).waitFor();
    });
  });
});
