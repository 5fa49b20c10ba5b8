import type { BodyOf, QueryOf } from '@commerce/client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { inventoryKeys, productKeys, statsKeys } from '../../api/query-keys';
import { useWrite } from '../../api/writes';

export type InventoryQuery = NonNullable<QueryOf<'/api/v1/admin/inventory'>>;

export const inventoryQuery = (query: InventoryQuery) =>
  queryOptions({
    queryKey: inventoryKeys.list(query),
    queryFn: () => api.GET('/api/v1/admin/inventory', { params: { query } }),
    placeholderData: keepPreviousData,
  });

export const stockRecordQuery = (variantId: string) =>
  queryOptions({
    queryKey: inventoryKeys.record(variantId),
    queryFn: async () =>
      (await api.GET('/api/v1/admin/inventory/{variant_public_id}', { params: { path: { variant_public_id: variantId } } })).data,
  });

export const movementsQuery = (variantId: string, query: { page: number; limit: number }) =>
  queryOptions({
    queryKey: inventoryKeys.movements(variantId, query),
    queryFn: () =>
      api.GET('/api/v1/admin/inventory/{variant_public_id}/movements', { params: { path: { variant_public_id: variantId }, query } }),
    placeholderData: keepPreviousData,
  });

/** A change of stock shows on the inventory screens, on the product's variants and in the dashboard's stock figures. */
const STOCK_CHANGES = [inventoryKeys.all, productKeys.all, statsKeys.all];

/** Adjusts on hand (by a change, or to a figure) or sets the reorder level. */
export function useUpdateStockRecord(variantId: string) {
  return useWrite({
    mutationFn: (body: BodyOf<'/api/v1/admin/inventory/{variant_public_id}', 'patch'>) =>
      api.PATCH('/api/v1/admin/inventory/{variant_public_id}', { params: { path: { variant_public_id: variantId } }, body }),
    invalidates: STOCK_CHANGES,
  });
}

/** Reserves units by hand (a positive change) or releases them (negative). */
export function useChangeReservation(variantId: string) {
  return useWrite({
    mutationFn: (body: BodyOf<'/api/v1/admin/inventory/{variant_public_id}/reservation', 'patch'>) =>
      api.PATCH('/api/v1/admin/inventory/{variant_public_id}/reservation', { params: { path: { variant_public_id: variantId } }, body }),
    invalidates: STOCK_CHANGES,
  });
}

/** Adjusts the stock of many records with one reason; each is done or refused on its own (the answer says which). */
export function useBulkAdjust() {
  return useWrite({
    mutationFn: async (body: BodyOf<'/api/v1/admin/inventory/bulk-adjust', 'post'>) =>
      (await api.POST('/api/v1/admin/inventory/bulk-adjust', { body })).data,
    invalidates: STOCK_CHANGES,
  });
}
