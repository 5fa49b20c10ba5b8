import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, test } from 'node:test';
import { inConsole, signInThroughUi, startConsole } from '../helpers/browser.js';
import { signInAs } from '../helpers/factories.js';
import { tinyPng } from '../helpers/media.js';

/** A free port, so the app's public URL (which names the upload endpoint) is its own address. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });

const port = await freePort();
const { t, browser } = await startConsole({ PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });

describe('console: catalog', () => {
  test('a product with an uploaded image and a variant with stock; a duplicate SKU is refused at the field', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const taken = await admin.client.post('/api/v1/admin/products', { name: 'Other' });
    await admin.client.post(`/api/v1/admin/products/${taken.body.data.public_id}/variants`, { sku: 'MUG-TAKEN', name: 'Default', price: '1.00' });

    let productId = '';
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Products' }).click();
      await page.getByRole('link', { name: 'New product' }).click();
      await page.getByRole('textbox', { name: 'Name' }).fill('Speckled mug');
      await page.getByRole('textbox', { name: 'Brand' }).fill('Falcon');
      await page.getByRole('combobox', { name: 'Status' }).click();
      await page.getByRole('option', { name: 'Active' }).click();
      await page.locator('input[type=file]').setInputFiles({ name: 'mug.png', mimeType: 'image/png', buffer: Buffer.from(tinyPng()) });
      const thumbnail = page.getByRole('img', { name: 'Image 1' });
      await thumbnail.waitFor();
      await page.getByRole('textbox', { name: 'Alt text of image 1' }).fill('A speckled mug');
      await page.getByRole('button', { name: 'Create product' }).click();
      await page.getByRole('heading', { level: 1, name: 'Speckled mug' }).waitFor();
      productId = new URL(page.url()).pathname.split('/').pop()!;

      await page.getByRole('textbox', { name: 'SKU' }).fill('MUG-TAKEN');
      await page.getByRole('textbox', { name: 'Variant name' }).fill('Blue');
      await page.getByRole('textbox', { name: 'Options' }).fill('colour=Blue');
      await page.getByRole('textbox', { name: 'Price', exact: true }).fill('18.00');
      await page.getByRole('textbox', { name: 'Cost price' }).fill('6.50');
      await page.getByRole('textbox', { name: 'Initial stock' }).fill('12');
      await page.getByRole('button', { name: 'Add variant' }).click();
      await page.getByText('Another variant already uses this SKU').waitFor();
      await page.getByRole('textbox', { name: 'SKU' }).fill('MUG-BLUE');
      await page.getByRole('button', { name: 'Add variant' }).click();
      await page.getByRole('table', { name: 'Variants' }).getByRole('cell', { name: 'MUG-BLUE', exact: true }).waitFor();
      await page.getByRole('table', { name: 'Variants' }).getByRole('link', { name: '12' }).waitFor();

      await page.getByRole('button', { name: 'Edit variant MUG-BLUE' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox', { name: 'Price', exact: true }).fill('19.50');
      await dialog.getByRole('combobox', { name: 'Variant status' }).click();
      await page.getByRole('option', { name: 'Inactive' }).click();
      await dialog.getByRole('button', { name: 'Save variant' }).click();
      await page.getByText('Variant MUG-BLUE saved').waitFor();
      await page.getByRole('table', { name: 'Variants' }).getByRole('cell', { name: '$19.50' }).waitFor();
    });

    const product = (await admin.client.get(`/api/v1/admin/products/${productId}`)).body.data;
    assert.equal(product.name, 'Speckled mug');
    assert.equal(product.status, 'ACTIVE');
    assert.equal(product.images.length, 1);
    assert.equal(product.images[0].alt_text, 'A speckled mug');
    assert.match(product.images[0].url, new RegExp(`^${t.baseUrl}/media/ecommerce/products/`));
    const image = await fetch(product.images[0].url);
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/png');
    assert.equal(product.variants[0].status, 'INACTIVE');
    assert.deepEqual(
      product.variants.map((v: any) => [v.sku, v.price, v.cost_price, v.options, v.inventory?.quantity_on_hand]),
      [['MUG-BLUE', '19.50', '6.50', { colour: 'Blue' }, 12]],
    );
  });

  test('the category tree: reorder siblings and move a category under another', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const make = async (name: string, position: number) =>
      (await admin.client.post('/api/v1/admin/categories', { name, position })).body.data.public_id as string;
    const kitchen = await make('Kitchen', 0);
    const garden = await make('Garden', 10);
    const bath = await make('Bath', 20);
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Categories' }).click();
      const tree = page.getByRole('tree', { name: 'Category tree' });
      await tree.getByRole('treeitem', { name: 'Bath' }).waitFor();
      await page.getByRole('button', { name: 'Move Bath up' }).click();
      await page.getByText('Bath moved up').waitFor();
      const order = async () => (await tree.getByRole('treeitem').evaluateAll((items) => items.map((i) => i.getAttribute('aria-label'))));
      assert.deepEqual(await order(), ['Kitchen', 'Bath', 'Garden']);

      await page.getByRole('combobox', { name: 'Parent of Garden' }).click();
      await page.getByRole('option', { name: 'Kitchen' }).click();
      await page.getByText('Garden moved').waitFor();
      await tree.locator('[aria-level="2"][aria-label="Garden"]').waitFor();
    });
    const categories = (await admin.client.get('/api/v1/categories?limit=100')).body.data as any[];
    const byId = Object.fromEntries(categories.map((c) => [c.public_id, c]));
    assert.equal(byId[garden].parent_public_id, kitchen);
    assert.ok(byId[kitchen].position < byId[bath].position, 'Kitchen stays first, Bath second');
  });
});
