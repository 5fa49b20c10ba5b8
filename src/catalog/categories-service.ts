import { sql } from 'kysely';
import type { Db, Executor } from '../db/database.js';
import type { CategoryRow } from '../db/schema.js';
import { writeAudit } from '../audit/audit-log.js';
import type { AuthedCtx } from '../lib/context.js';
import { isUniqueViolation } from '../lib/db-errors.js';
import { conflict, notFound, validationError } from '../lib/errors.js';
import { isPublicId, newPublicId } from '../lib/ids.js';
import { paged, toPage, countOf, totalOf } from '../lib/pagination.js';
import type { Category, CategoryCreate, CategoryListQuery, CategoryPatch } from './schemas.js';
import { chooseSlug } from './slug.js';
import { transaction } from '../db/transaction.js';

type CategoryWithParent = CategoryRow & { parent_public_id: string | null };

const toCategory = (c: CategoryWithParent): Category => ({
  public_id: c.public_id,
  name: c.name,
  slug: c.slug,
  description: c.description,
  parent_public_id: c.parent_public_id,
  position: c.position,
  created_at: c.created_at.toISOString(),
  updated_at: c.updated_at.toISOString(),
});

const audited = (c: CategoryWithParent) => ({ name: c.name, slug: c.slug, description: c.description, parent_public_id: c.parent_public_id, position: c.position });
const slugTaken = () => conflict('SLUG_TAKEN', 'Another category already uses this slug');

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
 * on each other's rows (a 500). Taken before any row lock, so waiting on it
 * cannot deadlock.
 */
const lockTree = (trx: Executor) => sql`SELECT pg_advisory_xact_lock(hashtext('categories.tree'))`.execute(trx);

/** Categories: a tree via parent links; public reads, admin writes (soft delete). */
export function createCategoryService({ db }: { db: Db }) {
  async function find(executor: Executor, publicId: string, lock = false): Promise<CategoryWithParent> {
    if (!isPublicId('cat', publicId)) throw notFound('Category');
    let query = live(executor).where('c.public_id', '=', publicId);
    if (lock) query = query.forNoKeyUpdate('c');
    const row = await query.executeTakeFirst();
    if (!row) throw notFound('Category');
    return row;
  }

  /** Resolves a parent reference; a parent that is the category itself or one of its descendants would make a cycle. */
  async function parentId(executor: Executor, parentPublicId: string | null | undefined, selfId?: number): Promise<number | null | undefined> {
    if (parentPublicId === undefined) return undefined;
    if (parentPublicId === null) return null;
    const parent = await find(executor, parentPublicId).catch(() => {
      throw notFound('Parent category');
    });
    if (selfId !== undefined) {
      const cycle = await sql<{ id: number }>`
        WITH RECURSIVE ancestors(id, parent_id) AS (
          SELECT id, parent_id FROM categories WHERE id = ${parent.id}
          UNION ALL
          SELECT c.id, c.parent_id FROM categories c JOIN ancestors a ON c.id = a.parent_id
        )
        SELECT id FROM ancestors WHERE id = ${selfId}
      `.execute(executor);
      if (cycle.rows.length > 0) {
        throw validationError('A category cannot be moved under itself or its descendants', [
          { field: 'parent_public_id', message: 'would create a cycle' },
        ]);
      }
    }
    return parent.id;
  }


  async function write<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    try {
      return await transaction(db, work);
    } catch (error) {
      if (isUniqueViolation(error, 'categories_slug_unique')) throw slugTaken();
      throw error;
    }
  }

  return {
    async list(query: CategoryListQuery) {
      let base = live(db);
      if (query.parent === 'root') base = base.where('c.parent_id', 'is', null);
      else if (query.parent !== undefined) {
        if (!isPublicId('cat', query.parent)) return toPage([], query, async () => 0, toCategory);
        base = base.where('parent.public_id', '=', query.parent);
      }
      const rows = await base
        .select(countOf(base.clearSelect()).as('total_count'))
        .orderBy('c.position')
        .orderBy('c.name')
        .orderBy('c.public_id')
        .$call(paged(query))
        .execute();
      return toPage(rows, query, totalOf(base.clearSelect()), toCategory);
    },

    get: async (publicId: string) => toCategory(await find(db, publicId)),

    create: (ctx: AuthedCtx, input: CategoryCreate) =>
      write(async (trx) => {
        const row = await trx
          .insertInto('categories')
          .values({
            public_id: newPublicId('cat'),
            name: input.name,
            slug: await chooseSlug(trx, 'categories', input.slug, input.name, slugTaken),
            description: input.description ?? null,
            parent_id: (await parentId(trx, input.parent_public_id)) ?? null,
            position: input.position ?? 0,
          })
          .returning('public_id')
          .executeTakeFirstOrThrow();
        const created = await find(trx, row.public_id);
        await writeAudit(trx, ctx, { action: 'category.create', entityType: 'category', entityPublicId: created.public_id, changes: { before: null, after: audited(created) } });
        return toCategory(created);
      }),

    update: (ctx: AuthedCtx, publicId: string, patch: CategoryPatch) =>
      write(async (trx) => {
        if (patch.parent_public_id !== undefined) await lockTree(trx);
        const before = await find(trx, publicId, true);
        const parent = await parentId(trx, patch.parent_public_id, before.id);
        await trx
          .updateTable('categories')
          .set({
            ...(patch.name !== undefined ? { name: patch.name } : {}),
            ...(patch.slug !== undefined ? { slug: await chooseSlug(trx, 'categories', patch.slug, before.name, slugTaken, before.id) } : {}),
            ...(patch.description !== undefined ? { description: patch.description } : {}),
            ...(patch.position !== undefined ? { position: patch.position } : {}),
            ...(parent !== undefined ? { parent_id: parent } : {}),
            updated_at: new Date(),
          })
          .where('id', '=', before.id)
          .execute();
        const after = await find(trx, publicId);
        await writeAudit(trx, ctx, { action: 'category.update', entityType: 'category', entityPublicId: publicId, changes: { before: audited(before), after: audited(after) } });
        return toCategory(after);
      }),

    /** Soft delete; its children move up to its parent so the tree stays whole. */
    remove: (ctx: AuthedCtx, publicId: string) =>
      write(async (trx) => {
        await lockTree(trx); // it re-parents the children
        const category = await find(trx, publicId, true);
        await trx.updateTable('categories').set({ parent_id: category.parent_id, updated_at: new Date() }).where('parent_id', '=', category.id).execute();
        await trx.updateTable('categories').set({ deleted_at: new Date(), updated_at: new Date() }).where('id', '=', category.id).execute();
        await writeAudit(trx, ctx, { action: 'category.delete', entityType: 'category', entityPublicId: publicId, changes: { before: audited(category), after: null } });
      }),
  };
}

export type CategoryService = ReturnType<typeof createCategoryService>;
