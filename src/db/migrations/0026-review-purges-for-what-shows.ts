import { sql, type Kysely } from 'kysely';

/**
 * A public review's list is purged only when something it shows changes. Migration 0018 purged
 * `reviews:prd_...` on any write to a review that was approved before or after it, so moderating an
 * approved review again (a new internal note, the same decision) purged a list that looks the same.
 * A review now counts when it is public on either side and its shown columns differ (rating, title,
 * comment, images, status, deletion, product, author, the author's last edit); one inserted or
 * deleted still counts as before (their own triggers).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION purge_from_reviews() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM purge_cache(ARRAY(
        SELECT DISTINCT 'reviews:' || p.public_id
        FROM new_rows n
        JOIN old_rows o ON o.id = n.id
        JOIN products p ON p.id IN (n.product_id, o.product_id)
        WHERE ((n.status = 'APPROVED' AND n.deleted_at IS NULL) OR (o.status = 'APPROVED' AND o.deleted_at IS NULL))
          AND (n.status, n.deleted_at, n.rating, n.title, n.comment, n.images::text, n.product_id, n.user_id, n.updated_at)
              IS DISTINCT FROM (o.status, o.deleted_at, o.rating, o.title, o.comment, o.images::text, o.product_id, o.user_id, o.updated_at)
        ORDER BY 1));
      RETURN NULL;
    END $$;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION purge_from_reviews() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      lists text[];
    BEGIN
      lists := ARRAY(
        SELECT DISTINCT 'reviews:' || p.public_id
        FROM (SELECT product_id, status, deleted_at FROM new_rows UNION ALL SELECT product_id, status, deleted_at FROM old_rows) r
        JOIN products p ON p.id = r.product_id
        WHERE r.status = 'APPROVED' AND r.deleted_at IS NULL ORDER BY 1);
      PERFORM purge_cache(lists);
      RETURN NULL;
    END $$;
  `.execute(db);
}
