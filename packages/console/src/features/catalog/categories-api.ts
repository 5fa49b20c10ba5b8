import type { BodyOf } from '@commerce/client';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { categoryKeys, productKeys } from '../../api/query-keys';
import { useWrite } from '../../api/writes';

/** Every category (walking all pages), shared by the category tree and the product editor's picker. */
export const everyCategoryQuery = queryOptions({
  queryKey: categoryKeys.everyOne(),
  queryFn: async () => {
    const all = [];
    for await (const category of api.items('/api/v1/categories', { params: { query: { page: 1, limit: 100 } } })) all.push(category);
    return all;
  },
  staleTime: 60_000,
});

type CategoryPatch = BodyOf<'/api/v1/admin/categories/{category_public_id}', 'patch'>;
const patchCategory = (id: string, body: CategoryPatch) =>
  api.PATCH('/api/v1/admin/categories/{category_public_id}', { params: { path: { category_public_id: id } }, body });

/** Places categories in the tree (a parent, a position among siblings), one after another; only the tree changes. */
export function useArrangeCategories() {
  return useWrite({
    mutationFn: async (moves: { id: string; place: Pick<CategoryPatch, 'parent_public_id' | 'position'> }[]) => {
      for (const move of moves) await patchCategory(move.id, move.place);
    },
    invalidates: [categoryKeys.all],
  });
}

export function useCreateCategory() {
  return useWrite({
    mutationFn: (body: BodyOf<'/api/v1/admin/categories', 'post'>) => api.POST('/api/v1/admin/categories', { body }),
    invalidates: [categoryKeys.all],
  });
}

/** A category's name, slug and description: products show its name too. */
export function useUpdateCategory(id: string) {
  return useWrite({
    mutationFn: (body: Pick<CategoryPatch, 'name' | 'slug' | 'description'>) => patchCategory(id, body),
    invalidates: [categoryKeys.all, productKeys.all],
  });
}

/** Deleting a category takes it off its products; its subcategories move up to its parent. */
export function useDeleteCategory() {
  return useWrite({
    mutationFn: (id: string) =>
      api.DELETE('/api/v1/admin/categories/{category_public_id}', { params: { path: { category_public_id: id } } }),
    invalidates: [categoryKeys.all, productKeys.all],
  });
}
