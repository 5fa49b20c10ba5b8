import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { freePort } from '../../src/lib/ports.js';
import { inConsole, signInThroughUi, startConsole } from '../helpers/browser.js';
import { checkout, inventoryOf, shopper } from '../helpers/commerce.js';
import { signInAs } from '../helpers/factories.js';
import { tinyPng } from '../helpers/media.js';

// A port of its own, so the app's public URL (which names the upload endpoint) is its own address.
const port = await freePort();
const { t, browser } = await startConsole({ PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, RATE_LIMIT_REGISTER: '0' });

describe('console: catalog', () => {
  test('a product with an uploaded image and a variant with stock; a duplicate SKU is refused at the field', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const taken = await admin.client.post('/api/v1/admin/products', { name: 'Other' });
    await admin.client.post(`/api/v1/admin/products/${taken.body.data.public_id}/variants`, {
      sku: 'MUG-TAKEN',
      name: 'Default',
      price: '1.00',
    });

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
      // The product's photo is this variant's too: picked, not uploaded again.
      await dialog.getByRole('button', { name: 'Use a product image' }).click();
      await page.getByRole('menuitem', { name: 'A speckled mug' }).click();
      await dialog.getByRole('img', { name: 'A speckled mug' }).waitFor();
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
    assert.deepEqual(product.variants[0].images, [{ url: product.images[0].url, alt_text: 'A speckled mug', position: 0 }]);
    assert.deepEqual(
      product.variants.map((v: any) => [v.sku, v.price, v.cost_price, v.options, v.inventory?.quantity_on_hand]),
      [['MUG-BLUE', '19.50', '6.50', { colour: 'Blue' }, 12]],
    );
  });

  test('the category tree: delete after a confirmation, reorder siblings, move a category under another (with undo), edit its name, slug and description', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const make = async (name: string, position: number) =>
      (await admin.client.post('/api/v1/admin/categories', { name, position })).body.data.public_id as string;
    const kitchen = await make('Kitchen', 0);
    const garden = await make('Garden', 10);
    const bath = await make('Bath', 20);
    const attic = await make('Attic', 30);
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Categories' }).click();
      const tree = page.getByRole('tree', { name: 'Category tree' });
      await tree.getByRole('treeitem', { name: 'Bath' }).waitFor();
      await page.getByRole('button', { name: 'Delete Attic' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete Attic?' });
      await confirm.getByText('Products stay in the catalog.').waitFor();
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('Attic deleted').waitFor();
      await tree.getByRole('treeitem', { name: 'Attic' }).waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Move Bath up' }).click();
      await page.getByText('Bath moved up').waitFor();
      const order = async () => await tree.getByRole('treeitem').evaluateAll((items) => items.map((i) => i.getAttribute('aria-label')));
      assert.deepEqual(await order(), ['Kitchen', 'Bath', 'Garden']);

      await page.getByRole('combobox', { name: 'Parent of Garden' }).click();
      await page.getByRole('option', { name: 'Kitchen' }).click();
      await page.getByText('Garden moved under Kitchen').waitFor();
      // The pointer on the notice holds it open (it closes itself after 10 s; a loaded machine can take that long).
      await page.getByRole('alert').filter({ hasText: 'Garden moved under Kitchen' }).hover();
      await tree.locator('[aria-level="2"][aria-label="Garden"]').waitFor();
      // Undo puts it back where it was, at the top level.
      await page.getByRole('alert').filter({ hasText: 'Garden moved under Kitchen' }).getByRole('button', { name: 'Undo' }).click();
      await page.getByText('Garden is back where it was').waitFor();
      await tree.locator('[aria-level="1"][aria-label="Garden"]').waitFor();
      assert.equal((await admin.client.get(`/api/v1/categories/${garden}`)).body.data.parent_public_id, null);
      await page.getByRole('combobox', { name: 'Parent of Garden' }).click();
      await page.getByRole('option', { name: 'Kitchen' }).click();
      await tree.locator('[aria-level="2"][aria-label="Garden"]').waitFor();

      await page.getByRole('button', { name: 'Edit Kitchen' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox', { name: 'Name' }).fill('Kitchen and dining');
      await dialog.getByRole('textbox', { name: 'Slug' }).fill('bath');
      await dialog.getByRole('button', { name: 'Save category' }).click();
      await dialog.getByText('Another category already uses this slug').waitFor();
      await dialog.getByRole('textbox', { name: 'Slug' }).fill('kitchen-and-dining');
      await dialog.getByRole('textbox', { name: 'Description' }).fill('Pots, pans and plates');
      await dialog.getByRole('button', { name: 'Save category' }).click();
      await dialog.waitFor({ state: 'detached' });
      await tree.getByRole('treeitem', { name: 'Kitchen and dining' }).getByText('/kitchen-and-dining · Pots, pans and plates').waitFor();
    });
    const categories = (await admin.client.get('/api/v1/categories?limit=100')).body.data as any[];
    const byId = Object.fromEntries(categories.map((c) => [c.public_id, c]));
    assert.equal(byId[attic], undefined, 'Attic is deleted');
    assert.equal(byId[garden].parent_public_id, kitchen);
    assert.ok(byId[kitchen].position < byId[bath].position, 'Kitchen stays first, Bath second');
    assert.deepEqual(
      [byId[kitchen].name, byId[kitchen].slug, byId[kitchen].description],
      ['Kitchen and dining', 'kitchen-and-dining', 'Pots, pans and plates'],
    );
  });

  test('a variant without stock gets its record; deleting a variant, then the product, says what happens to stock and orders first', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const product = (await admin.client.post('/api/v1/admin/products', { name: 'Oak stool', status: 'ACTIVE' })).body.data
      .public_id as string;
    const variant = async (sku: string) =>
      (await admin.client.post(`/api/v1/admin/products/${product}/variants`, { sku, name: sku, price: '45.00' })).body.data
        .public_id as string;
    const sold = await variant('STOOL-LOW');
    const bare = await variant('STOOL-HIGH');
    assert.equal((await admin.client.post('/api/v1/admin/inventory', { variant_public_id: sold, quantity_on_hand: 5 })).status, 201);
    const buyer = await shopper(t, [{ variantId: sold, quantity: 2 }]);
    const order = await checkout(buyer.client, buyer.addressId);
    assert.equal(order.status, 201, order.text);

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email, `/admin/products/${product}`);
      const variants = page.getByRole('table', { name: 'Variants' });
      await variants.getByRole('button', { name: 'Create stock record of STOOL-HIGH' }).click();
      const record = page.getByRole('dialog');
      await record.getByRole('button', { name: 'Create stock record' }).click();
      await record.getByText('A whole number, 0 or more').waitFor();
      await record.getByRole('textbox', { name: 'On hand' }).fill('7');
      await record.getByRole('textbox', { name: 'Reorder level' }).fill('2');
      await record.getByRole('button', { name: 'Create stock record' }).click();
      await page.getByText('Stock of STOOL-HIGH recorded: 7 on hand').waitFor();
      await variants.getByRole('link', { name: '7', exact: true }).waitFor();

      await page.getByRole('button', { name: 'Delete variant STOOL-LOW' }).click();
      const confirm = page.getByRole('dialog');
      await confirm.getByText(/Its stock record \(5 on hand\) leaves Inventory/).waitFor();
      await confirm.getByText(/The 2 units reserved by open orders stay reserved/).waitFor();
      await confirm.getByRole('button', { name: 'Delete variant' }).click();
      await page.getByText('Variant STOOL-LOW deleted').waitFor();
      // The row's SKU and name cells both read STOOL-LOW; its delete button names the row once.
      await variants.getByRole('button', { name: 'Delete variant STOOL-LOW' }).waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Delete product' }).click();
      await page
        .getByRole('dialog')
        .getByText(/with its 1 variant: nobody can buy them.*\(7 on hand\).*Past orders keep their lines/)
        .waitFor();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete product' }).click();
      await page.getByRole('heading', { level: 1, name: 'Products' }).waitFor();
      await page.getByText('Oak stool deleted').waitFor();
      assert.equal(await page.getByRole('table', { name: 'Products' }).getByRole('link', { name: 'Oak stool' }).count(), 0);
    });

    const deleted = (await admin.client.get(`/api/v1/admin/products/${product}`)).body.data;
    assert.ok(deleted.deleted_at, 'the product is deleted');
    assert.ok(
      deleted.variants.every((v: any) => v.deleted_at),
      'and its variants',
    );
    const high = (await admin.client.get(`/api/v1/admin/products/${product}`)).body.data.variants.find(
      (v: any) => v.public_id === bare,
    ).inventory;
    assert.deepEqual([high.quantity_on_hand, high.reorder_level], [7, 2]);
    const low = await inventoryOf(t, sold);
    assert.deepEqual([low.quantity_on_hand, low.quantity_reserved], [5, 2], 'the open order keeps its reservation');
    const kept = await admin.client.get(`/api/v1/admin/orders/${order.body.data.public_id}`);
    assert.deepEqual(
      kept.body.data.items.map((i: any) => [i.sku, i.quantity]),
      [['STOOL-LOW', 2]],
    );
  });

  test('an error the API gives for a field with no input (an image URL) is shown above the button, not dropped', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email, '/admin/products/new');
      // The image host answers with a URL outside the products folder (a misconfigured host, say).
      await page.route(/\/media\/api\/v1\/files\/upload$/, (route) =>
        route.fulfill({
          contentType: 'application/json',
          body: JSON.stringify({
            fileId: 'f1',
            name: 'mug.png',
            url: `${t.baseUrl}/media/ecommerce/reviews/elsewhere.png`,
            filePath: '/ecommerce/reviews/elsewhere.png',
            size: 10,
            fileType: 'image',
          }),
        }),
      );
      await page.getByRole('textbox', { name: 'Name' }).fill('Glazed bowl');
      await page.locator('input[type=file]').setInputFiles({ name: 'bowl.png', mimeType: 'image/png', buffer: Buffer.from(tinyPng()) });
      await page.getByRole('textbox', { name: 'Alt text of image 1' }).waitFor();
      await page.getByRole('button', { name: 'Create product' }).click();
      const alert = page.getByRole('alert').filter({ hasText: 'Image 1 is not in the products media folder.' });
      await alert.waitFor();
      assert.match(await alert.innerText(), /Not saved/);
    });
    const count = await t.db
      .selectFrom('products')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('name', '=', 'Glazed bowl')
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 0);
  });

  test('two variants with the same options are refused at the Options field; a price of 0 asks first', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const product = (await admin.client.post('/api/v1/admin/products', { name: 'Wool scarf', status: 'ACTIVE' })).body.data
      .public_id as string;
    const small = await admin.client.post(`/api/v1/admin/products/${product}/variants`, {
      sku: 'SCARF-S',
      name: 'Small',
      options: { size: 'S' },
      price: '30.00',
    });
    assert.equal(small.status, 201, small.text);

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email, `/admin/products/${product}`);
      await page.getByRole('textbox', { name: 'SKU' }).fill('SCARF-S2');
      await page.getByRole('textbox', { name: 'Variant name' }).fill('Small again');
      await page.getByRole('textbox', { name: 'Options' }).fill('size=S');
      await page.getByRole('textbox', { name: 'Price', exact: true }).fill('30.00');
      await page.getByRole('button', { name: 'Add variant' }).click();
      const options = page.getByRole('textbox', { name: 'Options' });
      await page.getByText('The same as variant SCARF-S: change a value, or edit that variant').waitFor();
      assert.equal(await options.getAttribute('aria-invalid'), 'true', 'the refusal is at the Options field');
      assert.ok(await options.evaluate((input) => input === (globalThis as any).document.activeElement), 'and focus is there');

      // A free variant is a decision, asked about first: going back keeps the form as it was.
      await options.fill('size=M');
      await page.getByRole('textbox', { name: 'Price', exact: true }).fill('0');
      await page.getByRole('button', { name: 'Add variant' }).click();
      await page.getByRole('dialog').getByText('Sell SCARF-S2 for nothing?').waitFor();
      await page.getByRole('dialog').getByRole('button', { name: 'Back to the price' }).click();
      assert.equal(await page.getByRole('textbox', { name: 'SKU' }).inputValue(), 'SCARF-S2');
      await page.getByRole('button', { name: 'Add variant' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Yes, the price is 0.00' }).click();
      await page.getByText('Variant SCARF-S2 added').waitFor();

      // The same question from the edit form, which is in a modal: asked inside it, so going back keeps
      // every field as typed (a modal opened over it would unmount the form).
      await page.getByRole('button', { name: 'Edit variant SCARF-S', exact: true }).click();
      const edit = page.getByRole('dialog', { name: 'Edit SCARF-S' });
      await edit.getByRole('textbox', { name: 'Variant name' }).fill('Small, last season');
      await edit.getByRole('textbox', { name: 'Price', exact: true }).fill('0.00');
      await edit.getByRole('button', { name: 'Save variant' }).click();
      await edit.getByText('Sell SCARF-S for nothing?').waitFor();
      assert.ok(
        await edit
          .getByRole('button', { name: 'Back to the price' })
          .evaluate((button) => button === (globalThis as any).document.activeElement),
        'focus is on the way back',
      );
      await edit.getByRole('button', { name: 'Back to the price' }).click();
      assert.equal(await edit.getByText('Sell SCARF-S for nothing?').count(), 0);
      assert.equal(await edit.getByRole('textbox', { name: 'Variant name' }).inputValue(), 'Small, last season');
      assert.equal(await edit.getByRole('textbox', { name: 'Price', exact: true }).inputValue(), '0.00');
      await edit.getByRole('button', { name: 'Save variant' }).click();
      await edit.getByRole('button', { name: 'Yes, the price is 0.00' }).click();
      await page.getByText('Variant SCARF-S saved').waitFor();
    });
    const variants = (await admin.client.get(`/api/v1/admin/products/${product}`)).body.data.variants as any[];
    assert.deepEqual(
      variants.map((v) => [v.sku, v.name, v.options, v.price]),
      [
        ['SCARF-S', 'Small, last season', { size: 'S' }, '0.00'],
        ['SCARF-S2', 'Small again', { size: 'M' }, '0.00'],
      ],
    );
  });

  test('a new variant is offered the store’s reorder level, told what an empty one means, and keeps the level chosen', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const product = (await admin.client.post('/api/v1/admin/products', { name: 'Beeswax candle', status: 'ACTIVE' })).body.data
      .public_id as string;

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email, `/admin/products/${product}`);
      const level = page.getByRole('textbox', { name: 'Reorder level' });
      assert.equal(await level.inputValue(), '5', 'DEFAULT_REORDER_LEVEL, 5 unless configured');
      await page.getByText('Empty: no level, and this stock never shows as low stock.').waitFor();
      const add = async (sku: string, stock: string, reorder: string) => {
        await page.getByRole('textbox', { name: 'SKU' }).fill(sku);
        await page.getByRole('textbox', { name: 'Variant name' }).fill(sku);
        await page.getByRole('textbox', { name: 'Price', exact: true }).fill('12.00');
        await page.getByRole('textbox', { name: 'Initial stock' }).fill(stock);
        await level.fill(reorder);
        await page.getByRole('button', { name: 'Add variant' }).click();
        await page.getByText(`Variant ${sku} added`).waitFor();
      };
      await add('CANDLE-TALL', '4', '5');
      await add('CANDLE-SHORT', '4', '');
    });
    const variants = (await admin.client.get(`/api/v1/admin/products/${product}`)).body.data.variants as any[];
    assert.deepEqual(
      variants.map((v) => [v.sku, v.inventory.quantity_on_hand, v.inventory.reorder_level, v.inventory.stock_status]),
      [
        ['CANDLE-TALL', 4, 5, 'LOW_STOCK'],
        ['CANDLE-SHORT', 4, null, 'IN_STOCK'],
      ],
    );
  });

  test('the category picker names each category by its path, so two of the same name are told apart', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const make = async (name: string, parent?: string) =>
      (await admin.client.post('/api/v1/admin/categories', { name, ...(parent ? { parent_public_id: parent } : {}) })).body.data
        .public_id as string;
    const kitchen = await make('Kitchen');
    const gifts = await make('Gifts');
    await make('Mugs', kitchen);
    const giftMugs = await make('Mugs', gifts);

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email, '/admin/products/new');
      await page.getByRole('textbox', { name: 'Name' }).fill('Gift mug');
      await page.getByRole('combobox', { name: 'Categories' }).click();
      await page.getByRole('option', { name: 'Kitchen › Mugs' }).waitFor();
      await page.getByRole('option', { name: 'Gifts › Mugs' }).click();
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Create product' }).click();
      await page.getByRole('heading', { level: 1, name: 'Gift mug' }).waitFor();
    });
    const created = (await admin.client.get('/api/v1/admin/products?search=Gift%20mug')).body.data[0];
    assert.deepEqual(
      created.categories.map((c: any) => c.public_id),
      [giftMugs],
    );
  });

  test('every combination of sizes and colours in one step: a grid of SKUs, prices and stock, added together', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const product = (await admin.client.post('/api/v1/admin/products', { name: 'Linen shirt', slug: 'linen-shirt', status: 'ACTIVE' })).body
      .data.public_id as string;
    const existing = await admin.client.post(`/api/v1/admin/products/${product}/variants`, {
      sku: 'LINEN-SHIRT-S-RED',
      name: 'S / Red',
      options: { size: 'S', colour: 'Red' },
      price: '45.00',
    });
    assert.equal(existing.status, 201, existing.text);
    // Another product holds the SKU the grid will offer for M / Blue.
    const other = (await admin.client.post('/api/v1/admin/products', { name: 'Other' })).body.data.public_id as string;
    await admin.client.post(`/api/v1/admin/products/${other}/variants`, { sku: 'LINEN-SHIRT-M-BLUE', name: 'x', price: '1.00' });

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email, `/admin/products/${product}`);
      await page.getByRole('tab', { name: 'Every combination of options' }).click();
      const values = async (n: number, list: string[]) => {
        const input = page.getByRole('combobox', { name: `Values of option ${n}` });
        for (const value of list) {
          await input.fill(value);
          await input.press('Enter');
        }
      };
      await values(1, ['S', 'M', 'L']);
      await values(2, ['Red', 'Blue']);
      await page.getByRole('textbox', { name: 'Price for all' }).fill('45.00');
      await page.getByRole('textbox', { name: 'Stock for each' }).fill('10');
      await page.getByText('1 combination is already a variant and left out.').waitFor();
      await page.getByRole('button', { name: 'Make 5 rows' }).click();
      const grid = page.getByRole('table', { name: 'New variants' });
      assert.equal(await grid.getByRole('textbox', { name: 'SKU of L / Blue' }).inputValue(), 'LINEN-SHIRT-L-BLUE');
      // One row is changed by hand, one left out.
      await grid.getByRole('textbox', { name: 'Price of L / Red', exact: true }).fill('49.00');
      await grid.getByRole('button', { name: 'Leave out S / Blue' }).click();

      // A SKU taken elsewhere refuses the whole batch, at its row; nothing is added.
      await page.getByRole('button', { name: 'Add 4 variants' }).click();
      const taken = grid.getByRole('textbox', { name: 'SKU of M / Blue' });
      await grid.getByText('Is used by another variant').waitFor();
      assert.equal(await taken.getAttribute('aria-invalid'), 'true');
      await taken.fill('LINEN-SHIRT-M-BLUE-2');
      await page.getByRole('button', { name: 'Add 4 variants' }).click();
      await page.getByText('4 variants added').waitFor();
      await page.getByRole('table', { name: 'Variants' }).getByRole('cell', { name: 'LINEN-SHIRT-L-RED', exact: true }).waitFor();
    });

    const variants = (await admin.client.get(`/api/v1/admin/products/${product}`)).body.data.variants as any[];
    assert.deepEqual(variants.map((v) => [v.sku, v.options, v.price, v.inventory?.quantity_on_hand, v.inventory?.reorder_level]).sort(), [
      ['LINEN-SHIRT-L-BLUE', { size: 'L', colour: 'Blue' }, '45.00', 10, 5],
      ['LINEN-SHIRT-L-RED', { size: 'L', colour: 'Red' }, '49.00', 10, 5],
      ['LINEN-SHIRT-M-BLUE-2', { size: 'M', colour: 'Blue' }, '45.00', 10, 5],
      ['LINEN-SHIRT-M-RED', { size: 'M', colour: 'Red' }, '45.00', 10, 5],
      ['LINEN-SHIRT-S-RED', { size: 'S', colour: 'Red' }, '45.00', undefined, undefined],
    ]);
  });

  test('at 1280 px the combinations grid shows each SKU whole: its SKU and name columns are wide, the number columns narrow', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const product = (await admin.client.post('/api/v1/admin/products', { name: 'Audio linen', slug: 'aud-linen', status: 'ACTIVE' })).body
      .data.public_id as string;
    await inConsole(
      browser,
      t2,
      t,
      async (page) => {
        await signInThroughUi(page, admin.email, `/admin/products/${product}`);
        await page.getByRole('tab', { name: 'Every combination of options' }).click();
        for (const [n, list] of [
          [1, ['S', 'M', 'XL']],
          [2, ['Red', 'Blue', 'Purple']],
        ] as const) {
          const input = page.getByRole('combobox', { name: `Values of option ${n}` });
          for (const value of list) {
            await input.fill(value);
            await input.press('Enter');
          }
        }
        await page.getByRole('button', { name: 'Make 9 rows' }).click();
        const skus = page.getByRole('table', { name: 'New variants' }).getByRole('textbox', { name: /^SKU of / });
        assert.equal(await skus.count(), 9);
        const cut: string[] = [];
        for (const sku of await skus.all()) {
          const { value, clipped } = await sku.evaluate((input: any) => ({
            value: input.value,
            clipped: input.scrollWidth > input.clientWidth,
          }));
          if (clipped) cut.push(value);
        }
        assert.equal(await page.getByRole('textbox', { name: 'SKU of XL / Purple' }).inputValue(), 'AUD-LINEN-XL-PURPLE');
        assert.deepEqual(cut, [], 'every SKU fits its input');
      },
      { width: 1280, height: 900 },
    );
  });

  test('a product is duplicated as a draft with new SKUs; a variant gets a compare-at price and an image', async (t2) => {
    const admin = await signInAs(t, 'ADMIN');
    const product = (await admin.client.post('/api/v1/admin/products', { name: 'Clay vase', status: 'ACTIVE' })).body.data
      .public_id as string;
    const variant = await admin.client.post(`/api/v1/admin/products/${product}/variants`, { sku: 'VASE-1', name: 'Tall', price: '30.00' });
    assert.equal(variant.status, 201, variant.text);

    let copyId = '';
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, admin.email, `/admin/products/${product}`);
      await page.getByRole('button', { name: 'Edit variant VASE-1' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox', { name: 'Compare-at price' }).fill('39.00');
      await dialog.locator('input[type=file]').setInputFiles({ name: 'vase.png', mimeType: 'image/png', buffer: Buffer.from(tinyPng()) });
      await dialog.getByRole('textbox', { name: 'Alt text of image 1' }).fill('A tall clay vase');
      await dialog.getByRole('button', { name: 'Save variant' }).click();
      await page.getByText('Variant VASE-1 saved').waitFor();
      await page.getByRole('table', { name: 'Variants' }).getByRole('img', { name: 'A tall clay vase' }).waitFor();
      await page.getByRole('table', { name: 'Variants' }).getByLabel('Compare at $39.00').waitFor();

      await page.getByRole('button', { name: 'Duplicate' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Make a copy' }).click();
      await page.getByRole('heading', { level: 1, name: 'Clay vase (copy)' }).waitFor();
      await page.getByRole('table', { name: 'Variants' }).getByRole('cell', { name: 'VASE-1-COPY', exact: true }).waitFor();
      copyId = new URL(page.url()).pathname.split('/').pop()!;
    });
    const saved = (await admin.client.get(`/api/v1/admin/products/${product}`)).body.data.variants[0];
    assert.equal(saved.compare_at_price, '39.00');
    assert.deepEqual(
      saved.images.map((i: any) => i.alt_text),
      ['A tall clay vase'],
    );
    const copy = (await admin.client.get(`/api/v1/admin/products/${copyId}`)).body.data;
    assert.equal(copy.status, 'DRAFT');
    assert.notEqual(copy.slug, (await admin.client.get(`/api/v1/admin/products/${product}`)).body.data.slug);
  });
});
