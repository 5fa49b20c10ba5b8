import { queryOptions } from '@tanstack/react-query';
import { api } from './client';
import { settingsKeys } from './query-keys';

/** The store's settings as the API reports them (GET /admin/settings): read once, they change with a deploy. */
export const settingsQuery = queryOptions({
  queryKey: settingsKeys.all,
  queryFn: async () => (await api.GET('/api/v1/admin/settings')).data,
  staleTime: Infinity,
});

/** What an empty reorder level means, said wherever one is asked for. */
export const REORDER_LEVEL_HINT = 'Low stock at or below this. Empty: no level, and this stock never shows as low stock.';
