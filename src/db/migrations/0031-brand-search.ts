import { sql, type Kysely } from 'kysely';
import type { ConcurrentIndex } from '../concurrent-indexes.js';

/**
 * A product search finds a word in the brand too ("fjellstad" finds every Fjellstad product), as in the
 * name, description and SKUs: one more trigram index, so each word stays one bitmap scan OR-ed over the
 * four (src/catalog/listing-repository.ts). Built after the migrations commit, without holding off
 * catalog writes on a large catalog: concurrent-indexes.ts. Until it is built, a search reads the
 * products sequentially: correct, only slower.
 */
export const concurrentIndexes: readonly ConcurrentIndex[] = [
  { name: 'products_brand_trgm', table: 'products', definition: 'USING gin (brand gin_trgm_ops)' },
];

export async function up(): Promise<void> {}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS products_brand_trgm`.execute(db);
}
