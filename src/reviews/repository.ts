import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import type { ReviewStatus, ReviewsTable } from '../db/schema.js';
import type { Updateable } from 'kysely';
import type { PageRequest, Sort } from '../lib/pagination.js';
import { countOf, movedImageList, paged, totalOf } from '../lib/sql.js';
import type { ReviewSortField } from './schemas.js';

/**
 * Review SQL. Every read goes through `reviewRows`, which joins the product
 * and author and computes `verified_purchase` with EXISTS in the same statement.
 */

export interface ReviewFilters {
  productId?: number | undefined;
  productPublicId?: string | undefined;
  userId?: number | undefined;
  status?: ReviewStatus | undefined;
  rating?: number | undefined;
}

/** Statuses of an order whose goods have left the warehouse: the buyer may be a "verified" reviewer. */
const SHIPPED_STATUSES = ['SHIPPED', 'FULFILLED'] as const;

function filtered(db: Executor, f: ReviewFilters) {
  let query = db.selectFrom('reviews as r').innerJoin('products as p', 'p.id', 'r.product_id').where('r.deleted_at', 'is', null);
  if (f.productId !== undefined) query = query.where('r.product_id', '=', f.productId);
  if (f.productPublicId !== undefined) query = query.where('p.public_id', '=', f.productPublicId);
  if (f.userId !== undefined) query = query.where('r.user_id', '=', f.userId);
  if (f.status !== undefined) query = query.where('r.status', '=', f.status);
  if (f.rating !== undefined) query = query.where('r.rating', '=', f.rating);
  return query;
}

function reviewRows(db: Executor, f: ReviewFilters) {
  return filtered(db, f)
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select([
      'r.id',
      'r.public_id',
      'r.product_id',
      'r.rating',
      'r.title',
      'r.comment',
      'r.images',
      'r.status',
      'r.moderation_note',
      'r.moderated_at',
      'r.created_at',
      'r.updated_at',
      'p.public_id as product_public_id',
      'u.public_id as author_public_id',
      'u.first_name as author_first_name',
      sql<string>`upper(left(u.last_name, 1))`.as('author_last_initial'),
    ])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('order_items as oi')
            .innerJoin('orders as o', 'o.id', 'oi.order_id')
            .select(sql`1`.as('one'))
            .whereRef('oi.product_id', '=', 'r.product_id')
            .whereRef('o.user_id', '=', 'r.user_id')
            .where('o.status', 'in', SHIPPED_STATUSES),
        )
        .as('verified_purchase'),
    );
}
export type ReviewRow = Awaited<ReturnType<ReturnType<typeof reviewRows>['executeTakeFirstOrThrow']>>;

const SORT_COLUMNS = { created_at: sql`r.created_at`, rating: sql`r.rating` } as const;

export function listReviews(db: Executor, filters: ReviewFilters, sort: Sort<ReviewSortField>, page: PageRequest) {
  let query = reviewRows(db, filters)
    .select(countOf(filtered(db, filters)).as('total_count'))
    .orderBy(sql`${SORT_COLUMNS[sort.field]} ${sql.raw(sort.direction)}`);
  // Equal ratings show newest first; the public ID makes every order total.
  if (sort.field === 'rating') query = query.orderBy('r.created_at', 'desc');
  return query.orderBy('r.public_id', sort.direction).$call(paged(page)).execute();
}

export async function countReviews(db: Executor, filters: ReviewFilters): Promise<number> {
  return totalOf(filtered(db, filters))();
}

export function findReview(db: Executor, publicId: string, userId?: number): Promise<ReviewRow | undefined> {
  return reviewRows(db, { userId }).where('r.public_id', '=', publicId).executeTakeFirst();
}

/** The live review row itself, locked for the rest of the transaction. */
export function lockReview(db: Executor, publicId: string, userId?: number) {
  let query = db.selectFrom('reviews').selectAll().where('public_id', '=', publicId).where('deleted_at', 'is', null);
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  return query.forNoKeyUpdate().executeTakeFirst();
}

export async function insertReview(
  db: Executor,
  review: { publicId: string; productId: number; userId: number; rating: number; title: string; comment: string; images: string },
): Promise<void> {
  await db
    .insertInto('reviews')
    .values({
      public_id: review.publicId,
      product_id: review.productId,
      user_id: review.userId,
      rating: review.rating,
      title: review.title,
      comment: review.comment,
      images: review.images,
    })
    .execute();
}

export async function updateReview(db: Executor, id: number, changes: Updateable<ReviewsTable>): Promise<void> {
  await db.updateTable('reviews').set(changes).where('id', '=', id).execute();
}

/** An ACTIVE, live product: the only kind that can be reviewed or has a public review list. */
export async function findActiveProductId(db: Executor, publicId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('products')
    .select('id')
    .where('public_id', '=', publicId)
    .where('status', '=', 'ACTIVE')
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.id;
}

/** Count, two-decimal mean and per-star counts of a product's approved, live reviews. */
export function ratingSummary(db: Executor, productId: number) {
  return db
    .selectFrom('reviews')
    .where('product_id', '=', productId)
    .where('status', '=', 'APPROVED')
    .where('deleted_at', 'is', null)
    .select((eb) => [
      eb.fn.countAll<number>().as('count'),
      sql<string>`coalesce(round(avg(rating), 2), 0)`.as('average'),
      eb.fn.countAll<number>().filterWhere('rating', '=', 1).as('r1'),
      eb.fn.countAll<number>().filterWhere('rating', '=', 2).as('r2'),
      eb.fn.countAll<number>().filterWhere('rating', '=', 3).as('r3'),
      eb.fn.countAll<number>().filterWhere('rating', '=', 4).as('r4'),
      eb.fn.countAll<number>().filterWhere('rating', '=', 5).as('r5'),
    ])
    .executeTakeFirstOrThrow();
}

/**
 * Points every review photo under the image host's old address `from` at `to` (a move of
 * PUBLIC_BASE_URL), the rows locked in ID order (LOCKING.md step 6). Returns the rows changed.
 */
export async function moveImageUrls(trx: Executor, from: string, to: string): Promise<number> {
  const images = movedImageList('images', 'image_url', from, to);
  const result = await sql`
    WITH locked AS (SELECT id FROM reviews WHERE ${images.needed} ORDER BY id FOR UPDATE)
    UPDATE reviews r SET images = ${movedImageList('r.images', 'image_url', from, to).value}
    FROM locked WHERE r.id = locked.id`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}
