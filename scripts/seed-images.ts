import { sql } from 'kysely';
import type { Api } from '../packages/client/src/index.js';
import type { Db } from '../src/db/database.js';
import { pictureWebp } from './seed-pictures.js';
import { COLOURS, NAMES, type Shape } from './seed-products.js';

const SHAPE_OF_NAME = new Map<string, Shape>(
  Object.entries(NAMES).flatMap(([shape, names]) => names.map((name) => [name, shape as Shape])),
);

/**
 * A picture for every demo product that has none: one per colour, drawn here (no network), uploaded
 * through the signed upload credentials to the service's own image host as an admin's upload would
 * be, then set as the product's images through the API, and each variant gets its colour's picture
 * (the shop shows it when the colour is chosen). Idempotent: products with images are left alone.
 */
export async function seedImages(db: Db, admin: Api): Promise<number> {
  const bare = await sql<{ public_id: string; name: string; colours: string[]; variants: { public_id: string; colour: string | null }[] }>`
    SELECT p.public_id, p.name,
           array(SELECT DISTINCT ON (v.options->>'colour') v.options->>'colour' FROM variants v
                 WHERE v.product_id = p.id AND v.deleted_at IS NULL ORDER BY v.options->>'colour') AS colours,
           (SELECT coalesce(jsonb_agg(jsonb_build_object('public_id', v.public_id, 'colour', v.options->>'colour')), '[]'::jsonb)
            FROM variants v WHERE v.product_id = p.id AND v.deleted_at IS NULL) AS variants
    FROM products p
    WHERE p.deleted_at IS NULL AND jsonb_array_length(p.images::jsonb) = 0
    ORDER BY p.id`.execute(db);
  let pictured = 0;
  const picture = async (product: (typeof bare.rows)[number]) => {
    const shape = SHAPE_OF_NAME.get(product.name);
    const colours = product.colours.filter((c) => c && COLOURS[c]);
    if (!shape || colours.length === 0) return;
    const images = await Promise.all(
      colours.map(async (colour) => {
        const file = new Blob([await pictureWebp(shape, COLOURS[colour]!)], { type: 'image/webp' });
        const slug = product.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
        const uploaded = await admin.upload(file, { context: 'products', fileName: `${slug}-${colour.toLowerCase()}.webp` });
        return { url: uploaded.url, alt_text: `${product.name} in ${colour.toLowerCase()}` };
      }),
    );
    await admin.PATCH('/api/v1/admin/products/{product_public_id}', {
      params: { path: { product_public_id: product.public_id } },
      body: { images },
    });
    for (const variant of product.variants) {
      const own = variant.colour ? images[colours.indexOf(variant.colour)] : undefined;
      if (!own || colours.length < 2) continue; // one colour: the product's picture is the variant's
      await admin.PATCH('/api/v1/admin/variants/{variant_public_id}', {
        params: { path: { variant_public_id: variant.public_id } },
        body: { images: [own] },
      });
    }
    pictured++;
  };
  // A few products at a time: drawing and uploading overlap, and the seed stays quick.
  const queue = [...bare.rows];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await picture(next);
    }),
  );
  return pictured;
}
