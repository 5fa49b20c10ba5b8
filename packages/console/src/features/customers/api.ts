import type { QueryOf } from '@commerce/client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Role } from '../../api/domain';
import { accountKeys, orderKeys } from '../../api/query-keys';
import { useWrite } from '../../api/writes';

export type AccountsQuery = NonNullable<QueryOf<'/api/v1/admin/users'>>;

export const accountsQuery = (query: AccountsQuery) =>
  queryOptions({
    queryKey: accountKeys.list(query),
    queryFn: () => api.GET('/api/v1/admin/users', { params: { query } }),
    placeholderData: keepPreviousData,
  });

export const accountQuery = (userId: string) =>
  queryOptions({
    queryKey: accountKeys.detail(userId),
    queryFn: async () => (await api.GET('/api/v1/admin/users/{user_public_id}', { params: { path: { user_public_id: userId } } })).data,
  });

/** A customer's orders, newest first: a page of the orders list (invalidated with every order). */
export const customerOrdersQuery = (userId: string, page: number) => {
  const query = { page, limit: 10, customer: userId, sort: '-placed_at' as const };
  return queryOptions({
    queryKey: orderKeys.list(query),
    queryFn: () => api.GET('/api/v1/admin/orders', { params: { query } }),
    placeholderData: keepPreviousData,
  });
};

/** Suspends an account (its sessions end at once) or reactivates it. */
export function useSetSuspension(userId: string) {
  return useWrite({
    mutationFn: (suspend: boolean) => {
      const path = { user_public_id: userId };
      return suspend
        ? api.POST('/api/v1/admin/users/{user_public_id}/suspend', { params: { path } })
        : api.POST('/api/v1/admin/users/{user_public_id}/activate', { params: { path } });
    },
    invalidates: [accountKeys.all],
  });
}

/** Changes an account's role (its sessions end; the role applies at its next sign-in). */
export function useChangeRole(userId: string) {
  return useWrite({
    mutationFn: (role: Role) =>
      api.PATCH('/api/v1/admin/users/{user_public_id}/role', { params: { path: { user_public_id: userId } }, body: { role } }),
    invalidates: [accountKeys.all],
  });
}
