import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { statsKeys } from '../../api/query-keys';
import type { Period } from './search';

/** The dashboard's figures over a period: orders, revenue, customers, stock levels, reviews waiting. */
export const statsQuery = (period: Period) =>
  queryOptions({
    queryKey: statsKeys.period(period),
    queryFn: async () => (await api.GET('/api/v1/admin/stats', { params: { query: { period } } })).data,
  });

export type Stats = NonNullable<Awaited<ReturnType<NonNullable<ReturnType<typeof statsQuery>['queryFn']>>>>;
