import { sql } from 'kysely';
import type { Api } from '../packages/client/src/index.js';
import type { Db } from '../src/db/database.js';
import { pictureWebp } from './seed-pictures.js';
import { COLOURS, NAMES, type Shape } from './seed-products.js';

const REVIEWS: [number, string, string][] = [
  [5, 'Exactly as described', 'Arrived quickly and well packed. The quality is better than I expected for the price.'],
  [4, 'Good value', 'Solid quality for the price; the colour is a little darker than in the photos.'],
  [5, 'My new favourite', 'I have worn it almost every day since it arrived. Already thinking of getting a second colour.'],
  [3, 'Fine, but runs small', 'Does the job, but the sizing runs small. Order one size up.'],
  [4, 'Well made', 'Nice details and sturdy stitching. Took a week to break in, now very comfortable.'],
  [5, 'Great gift', 'Bought it as a present and it was a hit. Lovely packaging too.'],
  [2, 'Not for me', 'The material feels thinner than I expected. Returning it was easy, at least.'],
  [4, 'Comfortable', 'Comfortable from the first wear. Delivery took a few days longer than promised.'],
  [5, 'Worth every penny', 'My second one. The first still looks new after a year of use.'],
  [4, 'Lovely colour', 'The colour is even nicer in daylight. True to size for me.'],
];
/**
 * How many reviews each of the first products gets: some many, some one, some none. The first has
 * more than the product page shows at once (five), so the demo store shows reviews paged too.
 */
const PER_PRODUCT = [9, 2, 4, 1, 2, 0, 3, 1, 2, 0, 4, 1, 2, 3, 1, 0, 2, 1];

const SHAPE_OF_NAME = new Map<string, Shape>(
  Object.entries(NAMES).flatMap(([shape, names]) => names.map((name) => [name, shape as Shape])),
);

/**
 * Reviews by the demo customers on the first products: a few each, most published, some waiting
 * for moderation, a couple with a photo the customer uploaded (drawn here, sent through the signed
 * upload credentials like any shopper's). Returns how many were written.
 */
export async function seedReviews(db: Db, admin: Api, customers: Api[]): Promise<number> {
  const products = await sql<{ public_id: string; name: string; colour: string | null }>`
    SELECT p.public_id, p.name, (SELECT v.options->>'colour' FROM variants v WHERE v.product_id = p.id ORDER BY v.position LIMIT 1) AS colour
    FROM products p WHERE p.status = 'ACTIVE' AND p.deleted_at IS NULL ORDER BY p.id LIMIT ${PER_PRODUCT.length}`.execute(db);
  let written = 0;
  for (const [i, product] of products.rows.entries()) {
    for (let k = 0; k < PER_PRODUCT[i]!; k++) {
      const customer = customers[(i * 3 + k) % customers.length]!;
      const [rating, title, comment] = REVIEWS[(i * 2 + k) % REVIEWS.length]!;
      const shape = SHAPE_OF_NAME.get(product.name);
      const images = [];
      const colour = product.colour ? COLOURS[product.colour] : undefined;
      if ((i + k) % 7 === 0 && shape && colour) {
        const photo = new Blob([await pictureWebp(shape, colour)], { type: 'image/webp' });
        const { url } = await customer.upload(photo, { context: 'reviews', fileName: 'photo.webp' });
        images.push({ image_url: url, alt_text: `${product.name}, as it arrived` });
      }
      const review = await customer.POST('/api/v1/reviews', {
        body: { product_public_id: product.public_id, rating, title, comment, ...(images.length > 0 ? { images } : {}) },
      });
      written++;
      if ((i + k) % 6 === 5) continue; // left in the moderation queue
      await admin.PATCH('/api/v1/admin/reviews/{review_public_id}', {
        params: { path: { review_public_id: review.data.public_id } },
        body: { status: 'APPROVED' },
      });
    }
  }
  return written;
}
