import { sql } from 'kysely';
import type { Db } from '../src/db/database.js';
import { newPublicId } from '../src/lib/ids.js';

/**
 * A demo catalog: 3 top-level categories with 2 children each, 50 products,
 * 200 variants with inventory, some low and some out of stock. Skipped when
 * the catalog already has products. Deterministic, so every run looks alike.
 */
const TREE = {
  Apparel: ['T-Shirts', 'Hoodies'],
  Footwear: ['Running', 'Boots'],
  Accessories: ['Bags', 'Hats'],
} as const;
const BRANDS = ['Northwind', 'Acme', 'Globex', 'Initech', 'Umbrella'];
const ADJECTIVES = ['Classic', 'Urban', 'Trail', 'Everyday', 'Summit', 'Coastal', 'Heritage', 'Sprint', 'Cloud', 'Nomad'];
const SIZES = ['S', 'M', 'L', 'XL'];
const COLOURS = ['Black', 'Navy', 'Sand', 'Olive'];

export async function seedCatalog(db: Db): Promise<number> {
  const existing = await db
    .selectFrom('products')
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  if (existing.n > 0) return 0;

  return db.transaction().execute(async (trx) => {
    const leaves: { id: number; name: string }[] = [];
    let position = 0;
    for (const [parentName, children] of Object.entries(TREE)) {
      const parent = await trx
        .insertInto('categories')
        .values({ public_id: newPublicId('cat'), name: parentName, slug: parentName.toLowerCase(), position: position++ })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const child of children) {
        const row = await trx
          .insertInto('categories')
          .values({ public_id: newPublicId('cat'), parent_id: parent.id, name: child, slug: child.toLowerCase(), position: position++ })
          .returning('id')
          .executeTakeFirstOrThrow();
        leaves.push({ id: row.id, name: child });
      }
    }

    for (let n = 0; n < 50; n++) {
      const leaf = leaves[n % leaves.length]!;
      const name = `${ADJECTIVES[n % ADJECTIVES.length]} ${leaf.name.replace(/s$/, '')} ${n + 1}`;
      const base = 15 + ((n * 37) % 120);
      const product = await trx
        .insertInto('products')
        .values({
          public_id: newPublicId('prd'),
          name,
          slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
          description: `The ${name.toLowerCase()} from ${BRANDS[n % BRANDS.length]}: made to last, easy to love.`,
          brand: BRANDS[n % BRANDS.length]!,
          status: n % 17 === 16 ? 'DRAFT' : 'ACTIVE',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx.insertInto('product_categories').values({ product_id: product.id, category_id: leaf.id }).execute();
      for (let v = 0; v < 4; v++) {
        const size = SIZES[v]!;
        const colour = COLOURS[(n + v) % COLOURS.length]!;
        const variant = await trx
          .insertInto('variants')
          .values({
            public_id: newPublicId('var'),
            product_id: product.id,
            sku: `DEMO-${String(n + 1).padStart(3, '0')}-${size}`,
            name: `${size} / ${colour}`,
            options: JSON.stringify({ size, colour }),
            price: `${base + v * 2}.99`,
            compare_at_price: n % 5 === 0 ? `${base + v * 2 + 20}.00` : null,
            cost_price: `${Math.round((base + v * 2) * 0.45)}.00`,
            position: v,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        // Mostly healthy stock; every 7th variant low, every 11th sold out.
        const onHand = (n * 4 + v) % 11 === 0 ? 0 : (n * 4 + v) % 7 === 0 ? 3 : 20 + ((n * 13 + v * 7) % 80);
        await trx.insertInto('inventory').values({ variant_id: variant.id, quantity_on_hand: onHand, reorder_level: 5 }).execute();
      }
      await sql`UPDATE products p SET price_min = (SELECT min(price) FROM variants WHERE product_id = p.id),
                                      price_max = (SELECT max(price) FROM variants WHERE product_id = p.id)
                WHERE p.id = ${product.id}`.execute(trx);
    }
    return 50;
  });
}
