import { sql, type Kysely } from 'kysely';

/**
 * A cart holds at most a configured number of lines (MAX_CART_LINES): a checkout locks every line's
 * stock record, so an unbounded cart would let one account hold the stock of the whole catalog
 * locked at once. The add asks this function in the statement that inserts the line
 * (src/cart/repository.ts). It takes the account's cart-lines lock, held to the end of the add's
 * transaction, and only then counts: each query of a volatile function reads what is committed when
 * it runs, so racing adds are counted one after the other and none overshoots. A variant already in
 * the cart always fits (the add grows its line).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION cart_line_fits(account bigint, variant bigint, max_lines integer) RETURNS boolean
    LANGUAGE plpgsql VOLATILE AS $$
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtext('cart_items.lines'), (account % 2147483648)::integer);
      RETURN EXISTS (SELECT 1 FROM cart_items WHERE user_id = account AND variant_id = variant)
        OR (SELECT count(*) FROM cart_items WHERE user_id = account) < max_lines;
    END
    $$
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION cart_line_fits(bigint, bigint, integer)`.execute(db);
}
