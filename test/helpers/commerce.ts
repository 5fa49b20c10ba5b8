import { randomBytes } from 'node:crypto';
import type { TestApp } from './app.js';
import type { Client } from './client.js';
import { addressInput, signUp } from './factories.js';

/** Commerce test data made through the real admin and storefront API. */

/** A short random upper-case token, to keep names and codes of one test apart. */
export const tag = () => randomBytes(4).toString('hex').toUpperCase();

/** An ACTIVE product with one ACTIVE variant and an inventory record; returns the variant's public ID. */
export async function sellableVariant(admin: Client, options: { price?: string; stock?: number; costPrice?: string; name?: string } = {}) {
  const product = await admin.post('/api/v1/admin/products', { name: options.name ?? `Product ${tag()}`, status: 'ACTIVE' });
  if (product.status !== 201) throw new Error(`product: ${product.status} ${product.text}`);
  const variant = await admin.post(`/api/v1/admin/products/${product.body.data.public_id}/variants`, {
    sku: `SKU-${tag()}`,
    name: 'Default',
    price: options.price ?? '10.00',
    ...(options.costPrice ? { cost_price: options.costPrice } : {}),
  });
  if (variant.status !== 201) throw new Error(`variant: ${variant.status} ${variant.text}`);
  const id: string = variant.body.data.public_id;
  const inventory = await admin.post('/api/v1/admin/inventory', { variant_public_id: id, quantity_on_hand: options.stock ?? 100 });
  if (inventory.status !== 201) throw new Error(`inventory: ${inventory.status} ${inventory.text}`);
  return { variantId: id, productId: product.body.data.public_id as string };
}

/** A customer with an address and the given lines in the cart (added in this order). */
export async function shopper(t: Pick<TestApp, 'client'>, lines: { variantId: string; quantity: number }[]) {
  const { client, user, email } = await signUp(t);
  const address = await client.post('/api/v1/users/me/addresses', addressInput());
  if (address.status !== 201) throw new Error(`address: ${address.status} ${address.text}`);
  for (const line of lines) {
    const added = await client.post('/api/v1/cart/items', { variant_public_id: line.variantId, quantity: line.quantity });
    if (added.status !== 200) throw new Error(`cart: ${added.status} ${added.text}`);
  }
  await client.csrf(); // fetched now so a race measures checkout, not token fetching
  return { client, user, email, addressId: address.body.data.public_id as string };
}

export const checkout = (client: Client, addressId: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  client.post('/api/v1/orders', { address_public_id: addressId, payment_method: 'mock', ...extra }, { headers });

/** Runs `count` async jobs with at most `width` in flight. */
export async function inBatches<T>(count: number, width: number, job: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await job(i);
      }
    }),
  );
  return results;
}

export async function inventoryOf(t: Pick<TestApp, 'db'>, variantPublicId: string) {
  return t.db
    .selectFrom('inventory as i')
    .innerJoin('variants as v', 'v.id', 'i.variant_id')
    .select(['i.quantity_on_hand', 'i.quantity_reserved'])
    .where('v.public_id', '=', variantPublicId)
    .executeTakeFirstOrThrow();
}
