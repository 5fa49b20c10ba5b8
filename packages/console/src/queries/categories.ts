import { api } from '../api';

/** Every category (walking all pages), shared by the category tree and the product editor's picker. */
export const allCategoriesQuery = {
  queryKey: ['categories', 'all'],
  queryFn: async () => {
    const all = [];
    for await (const category of api.items('/api/v1/categories', { params: { query: { page: 1, limit: 100 } } })) all.push(category);
    return all;
  },
  staleTime: 60_000,
};
