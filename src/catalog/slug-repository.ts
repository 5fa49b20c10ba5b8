import type { Executor } from '../db/database.js';

/** Whether a live product or category (other than `exceptId`) already has this slug; slugs are unique per table among live rows. */
export async function slugInUse(db: Executor, table: 'products' | 'categories', slug: string, exceptId?: number): Promise<boolean> {
  const row = await db
    .selectFrom(table)
    .select('id')
    .where('slug', '=', slug)
    .where('deleted_at', 'is', null)
    .where('id', '<>', exceptId ?? -1)
    .executeTakeFirst();
  return row !== undefined;
}
