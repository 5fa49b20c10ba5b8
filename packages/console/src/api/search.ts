import { queryOptions } from '@tanstack/react-query';
import { api } from './client';
import { searchKeys } from './query-keys';

/** What the header's search finds for `q`: the one thing it names outright (`exact`), else a few of each kind. */
export const storeSearchQuery = (q: string) =>
  queryOptions({
    queryKey: searchKeys.text(q),
    queryFn: async () => (await api.GET('/api/v1/admin/search', { params: { query: { q } } })).data,
    staleTime: 10_000,
  });
