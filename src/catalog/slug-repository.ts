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

/** Which of these slugs a live product or category already has. */
export async function slugsInUse(db: Executor, table: 'products' | 'categories', slugs: readonly string[]): Promise<Set<string>> {
  if (slugs.length === 0) return new Set();
  const rows = await db.selectFrom(table).select('slug').where('slug', 'in', slugs).where('deleted_at', 'is', null).execute();
  return new Set(rows.map((row) => row.slug));
}
