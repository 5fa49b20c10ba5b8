import { sql, type Kysely } from 'kysely';

/**
 * Every checkout updates two inventory rows, and an update that changes an
 * indexed column writes an entry into every index of the table. The two
 * trigram indexes cost half of that update (bench/NOTES.md, finding 12):
 * admin inventory search now finds variants through the trigram indexes the
 * catalog already keeps (variants.sku, products.name) and reaches inventory
 * by its variant key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX inventory_product_name_trgm, inventory_sku_trgm`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX inventory_product_name_trgm ON inventory USING gin (product_name gin_trgm_ops);
    CREATE INDEX inventory_sku_trgm ON inventory USING gin (sku gin_trgm_ops);
  `.execute(db);
}
