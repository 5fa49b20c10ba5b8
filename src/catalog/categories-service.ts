import type { Db, Executor } from '../db/database.js';
import { transaction } from '../db/transaction.js';
import { writeAudit } from '../audit/audit-log.js';
import type { Clock } from '../lib/clock.js';
import type { AuthedCtx } from '../lib/context.js';
import { notFound, slugTaken, validationError } from '../lib/errors.js';
import { isPublicId, newPublicId } from '../lib/ids.js';
import { batchesOf } from '../lib/batches.js';
import { toPage } from '../lib/pagination.js';
import {
  deleteCategory,
  findLiveCategory,
  insertCategory,
  isSelfOrAncestorOf,
  listCategories,
  lockCategoryTree,
  lockCategoryWithChildren,
  updateCategory,
  type CategoryWithParent,
} from './category-repository.js';
import { liveProductsBy } from './import-repository.js';
import { readAdminProducts } from './listing-repository.js';
import { recordProductEvents } from './product-events.js';
import { liveProductIdsInCategory } from './product-repository.js';
import type { Category, CategoryCreate, CategoryListQuery, CategoryPatch } from './schemas.js';
import { slugInUse } from './slug-repository.js';
import { chooseSlug } from './slug.js';

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

const audited = (c: CategoryWithParent) => ({
  name: c.name,
  slug: c.slug,
  description: c.description,
  parent_public_id: c.parent_public_id,
  position: c.position,
});

/** Categories: a tree via parent links; public reads, admin writes (soft delete). */
export function createCategoryService({ db, clock }: { db: Db; clock: Clock }) {
  async function find(executor: Executor, publicId: string, lock = false): Promise<CategoryWithParent> {
    const row = isPublicId('cat', publicId) ? await findLiveCategory(executor, publicId, lock) : undefined;
    if (!row) throw notFound('Category');
    return row;
  }

  /**
   * product.updated for every live product in the category, in the writing transaction: a product's event
   * carries its categories' names and slugs, so a receiver keeping products must hear of a rename or a
   * deletion (the category then leaves the products' lists).
   */
  async function reportLinkedProducts(trx: Executor, categoryId: number): Promise<void> {
    for (const ids of batchesOf(await liveProductIdsInCategory(trx, categoryId))) {
      await recordProductEvents(trx, 'product.updated', await readAdminProducts(trx, await liveProductsBy(trx, { ids })));
    }
  }

  /** Resolves a parent reference; a parent that is the category itself or one of its descendants would make a cycle. */
  async function parentId(
    executor: Executor,
    parentPublicId: string | null | undefined,
    selfId?: number,
  ): Promise<number | null | undefined> {
    if (parentPublicId === undefined) return undefined;
    if (parentPublicId === null) return null;
    const parent = await find(executor, parentPublicId).catch(() => {
      throw notFound('Parent category');
    });
    if (selfId !== undefined && (await isSelfOrAncestorOf(executor, selfId, parent.id))) {
      throw validationError('A category cannot be moved under itself or its descendants', [
        { field: 'parent_public_id', message: 'would create a cycle' },
      ]);
    }
    return parent.id;
  }

  const slugFor = (executor: Executor, explicit: string | undefined, name: string, exceptId?: number) =>
    chooseSlug(
      explicit,
      name,
      () => slugTaken('category'),
      (candidate) => slugInUse(executor, 'categories', candidate, exceptId),
    );

  // A racing duplicate slug meets its unique constraint, which the error handler translates (lib/db-errors.ts).
  const write = <T>(work: (trx: Executor) => Promise<T>) => transaction(db, work);

  return {
    async list(query: CategoryListQuery) {
      if (query.parent !== undefined && query.parent !== 'root' && !isPublicId('cat', query.parent))
        return toPage([], query, async () => 0, toCategory);
      const { rows, countAll } = await listCategories(db, query.parent, query);
      return toPage(rows, query, countAll, toCategory);
    },

    get: async (publicId: string) => toCategory(await find(db, publicId)),

    create: (ctx: AuthedCtx, input: CategoryCreate) =>
      write(async (trx) => {
        // Under a parent it waits for a deletion of that parent in flight, then finds it gone (404)
        // instead of becoming a live child of a deleted category.
        if (input.parent_public_id) await lockCategoryTree(trx);
        const publicId = await insertCategory(trx, {
          public_id: newPublicId('cat'),
          name: input.name,
          slug: await slugFor(trx, input.slug, input.name),
          description: input.description ?? null,
          parent_id: (await parentId(trx, input.parent_public_id)) ?? null,
          position: input.position ?? 0,
        });
        const created = await find(trx, publicId);
        await writeAudit(trx, ctx, {
          action: 'category.create',
          entityType: 'category',
          entityPublicId: created.public_id,
          changes: { before: null, after: audited(created) },
        });
        return toCategory(created);
      }),

    update: (ctx: AuthedCtx, publicId: string, patch: CategoryPatch) =>
      write(async (trx) => {
        if (patch.parent_public_id !== undefined) await lockCategoryTree(trx);
        const before = await find(trx, publicId, true);
        const parent = await parentId(trx, patch.parent_public_id, before.id);
        await updateCategory(trx, before.id, {
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.slug !== undefined ? { slug: await slugFor(trx, patch.slug, before.name, before.id) } : {}),
          ...(patch.description !== undefined ? { description: patch.description } : {}),
          ...(patch.position !== undefined ? { position: patch.position } : {}),
          ...(parent !== undefined ? { parent_id: parent } : {}),
          updated_at: clock.now(),
        });
        const after = await find(trx, publicId);
        if (after.name !== before.name || after.slug !== before.slug) await reportLinkedProducts(trx, after.id);
        await writeAudit(trx, ctx, {
          action: 'category.update',
          entityType: 'category',
          entityPublicId: publicId,
          changes: { before: audited(before), after: audited(after) },
        });
        return toCategory(after);
      }),

    /** Soft delete; its children move up to its parent so the tree stays whole. */
    remove: (ctx: AuthedCtx, publicId: string) =>
      write(async (trx) => {
        await lockCategoryTree(trx); // it re-parents the children
        await lockCategoryWithChildren(trx, (await find(trx, publicId)).id);
        const category = await find(trx, publicId); // as locked (a rename may have committed in between)
        await deleteCategory(trx, category, clock.now());
        await reportLinkedProducts(trx, category.id);
        await writeAudit(trx, ctx, {
          action: 'category.delete',
          entityType: 'category',
          entityPublicId: publicId,
          changes: { before: audited(category), after: null },
        });
      }),
  };
}

export type CategoryService = ReturnType<typeof createCategoryService>;
