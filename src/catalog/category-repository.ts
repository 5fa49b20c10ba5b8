import { sql, type Updateable } from 'kysely';
import type { Executor } from '../db/database.js';
import type { CategoriesTable, CategoryRow } from '../db/schema.js';
import type { PageRequest } from '../lib/pagination.js';
import { countOf, paged, totalOf } from '../lib/sql.js';

/** Category SQL: the tree of live categories, each with its parent's public ID. */
export type CategoryWithParent = CategoryRow & { parent_public_id: string | null };

function live(db: Executor) {
  return db
    .selectFrom('categories as c')
    .leftJoin('categories as parent', 'parent.id', 'c.parent_id')
    .selectAll('c')
    .select('parent.public_id as parent_public_id')
    .where('c.deleted_at', 'is', null);
}

/**
 * Writes that change parent links run one at a time: otherwise two concurrent
 * moves can each pass the cycle check and together make a cycle, or deadlock
 * on each other's rows. Taken before any row lock (src/db/LOCKING.md, step 1).
 */
export const lockCategoryTree = async (db: Executor) =>
  void (await sql`SELECT pg_advisory_xact_lock(hashtext('categories.tree'))`.execute(db));

/** A live category by public ID; `lock` holds its row for the rest of the transaction. */
export function findLiveCategory(db: Executor, publicId: string, lock = false) {
  const query = live(db).where('c.public_id', '=', publicId);
  return (lock ? query.forNoKeyUpdate('c') : query).executeTakeFirst();
}

/** Live categories, in tree order within a parent; `parent` is a public ID, `root` or undefined (all). */
export async function listCategories(db: Executor, parent: string | undefined, page: PageRequest) {
  let base = live(db);
  if (parent === 'root') base = base.where('c.parent_id', 'is', null);
  else if (parent !== undefined) base = base.where('parent.public_id', '=', parent);
  const rows = await base
    .select(countOf(base.clearSelect()).as('total_count'))
    .orderBy('c.position')
    .orderBy('c.name')
    .orderBy('c.public_id')
    .$call(paged(page))
    .execute();
  return { rows, countAll: totalOf(base.clearSelect()) };
}

/** Whether `categoryId` is `descendantId` itself or one of its ancestors (so moving it under `descendantId` would make a cycle). */
export async function isSelfOrAncestorOf(db: Executor, categoryId: number, descendantId: number): Promise<boolean> {
  const found = await sql<{ id: number }>`
    WITH RECURSIVE ancestors(id, parent_id) AS (
      SELECT id, parent_id FROM categories WHERE id = ${descendantId}
      UNION ALL
      SELECT c.id, c.parent_id FROM categories c JOIN ancestors a ON c.id = a.parent_id
    )
    SELECT id FROM ancestors WHERE id = ${categoryId}
  `.execute(db);
  return found.rows.length > 0;
}

export async function insertCategory(
  db: Executor,
  values: Pick<CategoryRow, 'public_id' | 'name' | 'slug' | 'description' | 'parent_id' | 'position'>,
): Promise<string> {
  const row = await db.insertInto('categories').values(values).returning('public_id').executeTakeFirstOrThrow();
  return row.public_id;
}

export async function updateCategory(db: Executor, id: number, changes: Updateable<CategoriesTable>): Promise<void> {
  await db.updateTable('categories').set(changes).where('id', '=', id).execute();
}

/**
 * Locks a category and its children (the rows its deletion writes) in ID order, one statement
 * (src/db/LOCKING.md step 7): a product write holding some of them FOR SHARE, also in ID order,
 * then waits or is waited for, never both. Taken under the tree lock, so the children cannot change.
 */
export async function lockCategoryWithChildren(db: Executor, categoryId: number): Promise<void> {
  await db
    .selectFrom('categories')
    .select('id')
    .where((eb) => eb.or([eb('id', '=', categoryId), eb('parent_id', '=', categoryId)]))
    .orderBy('id')
    .forNoKeyUpdate()
    .execute();
}

/** Soft-deletes a category (locked with its children: lockCategoryWithChildren); its children move up to its parent, so the tree stays whole. */
export async function deleteCategory(db: Executor, category: Pick<CategoryRow, 'id' | 'parent_id'>, now: Date): Promise<void> {
  await db.updateTable('categories').set({ parent_id: category.parent_id, updated_at: now }).where('parent_id', '=', category.id).execute();
  await db.updateTable('categories').set({ deleted_at: now, updated_at: now }).where('id', '=', category.id).execute();
}

/**
 * The internal IDs of live categories a product is about to be linked to, held
 * FOR SHARE (in ID order, src/db/LOCKING.md step 7) until the link commits:
 * a rename or deletion of one of them then either finishes first (the link
 * sees it) or waits and finds the link, so the product's document never keeps
 * an old name. `missing` is the first public ID that names no live category.
 */
export async function liveCategoryIds(db: Executor, publicIds: readonly string[]): Promise<{ ids: number[]; missing: string | null }> {
  if (publicIds.length === 0) return { ids: [], missing: null };
  const rows = await db
    .selectFrom('categories')
    .select(['id', 'public_id'])
    .where('public_id', 'in', publicIds)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .forShare()
    .execute();
  const missing = publicIds.find((id) => !rows.some((row) => row.public_id === id)) ?? null;
  return { ids: rows.map((row) => row.id), missing };
}

/** A live category and every live descendant, in one recursive statement. */
export async function categorySubtree(db: Executor, categoryPublicId: string): Promise<number[] | null> {
  const rows = await db
    .withRecursive('tree(id)', (qb) =>
      qb
        .selectFrom('categories')
        .select('id')
        .where('public_id', '=', categoryPublicId)
        .where('deleted_at', 'is', null)
        .unionAll((u) =>
          u.selectFrom('categories as c').innerJoin('tree', 'tree.id', 'c.parent_id').select('c.id').where('c.deleted_at', 'is', null),
        ),
    )
    .selectFrom('tree')
    .select('id')
    .execute();
  return rows.length > 0 ? rows.map((r) => r.id) : null;
}
