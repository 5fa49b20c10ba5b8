import { sql } from 'kysely';
import type { Db } from '../src/db/database.js';
import { newPublicId } from '../src/lib/ids.js';
import { BASE_PRICE, BRANDS, CATEGORIES, describeProduct, NAMES, variantsOf, type Shape } from './seed-products.js';

const PRODUCTS = 50;

const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * The demo catalog (scripts/seed-products.ts): 3 top-level categories with 2 children each, 50
 * products with natural names and descriptions, their sizes and colours as variants with
 * inventory (some low, some sold out), a few on sale and two drafts. Skipped when the catalog
 * already has products. Deterministic, so every run looks alike. Pictures come after
 * (seed-images.ts), through the API.
 */
export async function seedCatalog(db: Db): Promise<number> {
  const existing = await db
    .selectFrom('products')
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  if (existing.n > 0) return 0;

  return db.transaction().execute(async (trx) => {
    const leaves: { id: number; shape: Shape }[] = [];
    let position = 0;
    for (const root of CATEGORIES) {
      const parent = await trx
        .insertInto('categories')
        .values({
          public_id: newPublicId('cat'),
          name: root.name,
          slug: slugOf(root.name),
          description: root.description,
          position: position++,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const child of root.children) {
        const row = await trx
          .insertInto('categories')
          .values({
            public_id: newPublicId('cat'),
            parent_id: parent.id,
            name: child.name,
            slug: slugOf(child.name),
            description: child.description,
            position: position++,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        leaves.push({ id: row.id, shape: child.shape });
      }
    }

    let variantCount = 0;
    for (let n = 0; n < PRODUCTS; n++) {
      const leaf = leaves[n % leaves.length]!;
      const round = Math.floor(n / leaves.length);
      const name = NAMES[leaf.shape][round]!;
      const [low, high] = BASE_PRICE[leaf.shape];
      const base = low + ((n * 37) % (high - low));
      const product = await trx
        .insertInto('products')
        .values({
          public_id: newPublicId('prd'),
          name,
          slug: slugOf(name),
          description: describeProduct(leaf.shape, name),
          brand: BRANDS[n % BRANDS.length]!,
          status: n % 17 === 16 ? 'DRAFT' : 'ACTIVE',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx.insertInto('product_categories').values({ product_id: product.id, category_id: leaf.id }).execute();
      for (const [v, variant] of variantsOf(leaf.shape, n).entries()) {
        const price = `${base + variant.priceStep}.${n % 2 === 0 ? '00' : '99'}`;
        const row = await trx
          .insertInto('variants')
          .values({
            public_id: newPublicId('var'),
            product_id: product.id,
            sku: `NW-${String(n + 1).padStart(3, '0')}-${Object.values(variant.options)
              .join('-')
              .toUpperCase()
              .replace(/[^A-Z0-9]+/g, '')}`,
            name: variant.name,
            options: JSON.stringify(variant.options),
            price,
            compare_at_price: n % 5 === 0 ? `${base + variant.priceStep + 20}.00` : null,
            cost_price: `${Math.round((base + variant.priceStep) * 0.45)}.00`,
            position: v,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        // Mostly healthy stock, as a shop's is: every 17th variant low (under the reorder level), every
        // 23rd sold out. (A product page that says "only 3 left" is never kept by a shared cache, so a
        // store where every product had one would be served whole for every visit.)
        const k = variantCount++;
        const onHand = k % 23 === 0 ? 0 : k % 17 === 0 ? 3 : 20 + ((n * 13 + v * 7) % 80);
        await trx.insertInto('inventory').values({ variant_id: row.id, quantity_on_hand: onHand, reorder_level: 5 }).execute();
      }
      await sql`UPDATE products p SET price_min = (SELECT min(price) FROM variants WHERE product_id = p.id),
                                      price_max = (SELECT max(price) FROM variants WHERE product_id = p.id)
                WHERE p.id = ${product.id}`.execute(trx);
    }
    return PRODUCTS;
  });
}
