import { sql, type Kysely } from 'kysely';

/**
 * The storefront's sort indexes carry the product id, so a page is found by
 * an index-only walk (deferred join, src/catalog/repository.ts): skipping to
 * page 400 reads 8,000 index entries instead of 8,000 table rows
 * (bench/NOTES.md, finding 19).
 */
const SORTS = [
  ['products_public_created', '(created_at DESC, public_id DESC)'],
  ['products_public_name', '(name, public_id)'],
  ['products_public_price', '(price_min, public_id)'],
  ['products_public_price_desc', '(price_min DESC NULLS LAST, public_id DESC)'],
  ['products_public_rating', '(rating_average, public_id)'],
] as const;

async function rebuild(db: Kysely<unknown>, include: string) {
  for (const [name, columns] of SORTS) {
    await sql
      .raw(`DROP INDEX ${name}; CREATE INDEX ${name} ON products ${columns}${include} WHERE status = 'ACTIVE' AND deleted_at IS NULL`)
      .execute(db);
  }
}

export const up = (db: Kysely<unknown>) => rebuild(db, ' INCLUDE (id)');
export const down = (db: Kysely<unknown>) => rebuild(db, '');
