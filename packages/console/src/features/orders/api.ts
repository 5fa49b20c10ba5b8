import type { BodyOf, QueryOf } from '@commerce/client';
import { keepPreviousData, queryOptions, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { accountKeys, orderKeys } from '../../api/query-keys';
import { useWrite } from '../../api/writes';
import { changedByMove } from './steps';

export type OrdersQuery = NonNullable<QueryOf<'/api/v1/admin/orders'>>;
export type StatusChange = BodyOf<'/api/v1/admin/orders/{order_public_id}', 'patch'>;

/** A page of orders: the orders list, and a customer's orders. */
export const ordersQuery = (query: OrdersQuery) =>
  queryOptions({
    queryKey: orderKeys.list(query),
    queryFn: () => api.GET('/api/v1/admin/orders', { params: { query } }),
    placeholderData: keepPreviousData,
  });

/** One order with its customer and the moves open to it (`allowed_transitions`). */
export const orderQuery = (orderId: string) =>
  queryOptions({
    queryKey: orderKeys.detail(orderId),
    queryFn: async () => (await api.GET('/api/v1/admin/orders/{order_public_id}', { params: { path: { order_public_id: orderId } } })).data,
  });

/** The account that moved an order (for its name in the history): the accounts' own read, shared with their screens. */
export const personQuery = (userId: string) =>
  queryOptions({
    queryKey: accountKeys.detail(userId),
    queryFn: async () => (await api.GET('/api/v1/admin/users/{user_public_id}', { params: { path: { user_public_id: userId } } })).data,
    staleTime: 5 * 60_000,
  });

export type OrderDetail = NonNullable<Awaited<ReturnType<NonNullable<ReturnType<typeof orderQuery>['queryFn']>>>>;

/** Moves an order along its lifecycle; the screen shows the order the API answers with at once. */
export function useChangeOrderStatus(orderId: string) {
  const queryClient = useQueryClient();
  return useWrite({
    mutationFn: async (body: StatusChange) =>
      (await api.PATCH('/api/v1/admin/orders/{order_public_id}', { params: { path: { order_public_id: orderId } }, body })).data,
    invalidates: (change) => changedByMove(change.status),
    onSuccess: (updated) => queryClient.setQueryData(orderKeys.detail(orderId), updated),
  });
}
