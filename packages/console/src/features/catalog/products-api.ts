import type { BodyOf, QueryOf } from '@commerce/client';
import { keepPreviousData, queryOptions, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { inventoryKeys, productKeys, statsKeys } from '../../api/query-keys';
import { useWrite } from '../../api/writes';

export type ProductsQuery = NonNullable<QueryOf<'/api/v1/admin/products'>>;
export type ProductBody = BodyOf<'/api/v1/admin/products', 'post'>;

export const productsQuery = (query: ProductsQuery) =>
  queryOptions({
    queryKey: productKeys.list(query),
    queryFn: () => api.GET('/api/v1/admin/products', { params: { query } }),
    placeholderData: keepPreviousData,
  });

/** A product with its variants and their stock (also read for a review's product name). */
export const productQuery = (productId: string) =>
  queryOptions({
    queryKey: productKeys.detail(productId),
    queryFn: async () =>
      (await api.GET('/api/v1/admin/products/{product_public_id}', { params: { path: { product_public_id: productId } } })).data,
  });

export type ProductDetail = NonNullable<Awaited<ReturnType<NonNullable<ReturnType<typeof productQuery>['queryFn']>>>>;
export type Variant = ProductDetail['variants'][number];

/**
 * A product's and its variants' names, prices and SKUs show on the inventory screens and in the
 * dashboard's top products; their stock records on the inventory screens and the dashboard's stock figures.
 */
const CATALOG_CHANGES = [productKeys.all, inventoryKeys.all, statsKeys.all];

/** Uploads a product image to the image host; its URL goes into the product's images when the product is saved. */
export const uploadProductImage = (file: File) => api.upload(file, { context: 'products', fileName: file.name });

export function useCreateProduct() {
  return useWrite({
    mutationFn: async (body: ProductBody) => (await api.POST('/api/v1/admin/products', { body })).data,
    invalidates: [productKeys.all],
  });
}

/** Saves a product's details; its screen shows the saved product at once. */
export function useUpdateProduct(productId: string) {
  const queryClient = useQueryClient();
  return useWrite({
    mutationFn: async (body: ProductBody) =>
      (await api.PATCH('/api/v1/admin/products/{product_public_id}', { params: { path: { product_public_id: productId } }, body })).data,
    invalidates: CATALOG_CHANGES,
    onSuccess: (updated) => queryClient.setQueryData(productKeys.detail(productId), updated),
  });
}

/** Deletes a product and its variants (their stock records leave Inventory). */
export function useDeleteProduct(productId: string) {
  const queryClient = useQueryClient();
  return useWrite({
    mutationFn: () => api.DELETE('/api/v1/admin/products/{product_public_id}', { params: { path: { product_public_id: productId } } }),
    invalidates: [productKeys.all, inventoryKeys.all, statsKeys.all],
    onSuccess: () => queryClient.removeQueries({ queryKey: productKeys.detail(productId) }),
  });
}

export type VariantBody = BodyOf<'/api/v1/admin/products/{product_public_id}/variants', 'post'>;

/**
 * Adds a variant and records its first stock and reorder level. The variant is made first; when its stock record then
 * fails, the variant stays and `stockError` says why (the product screen offers to create it).
 */
export function useAddVariant(productId: string) {
  return useWrite({
    mutationFn: async ({ variant, stock, reorderLevel }: { variant: VariantBody; stock: number; reorderLevel: number | null }) => {
      const created = (
        await api.POST('/api/v1/admin/products/{product_public_id}/variants', {
          params: { path: { product_public_id: productId } },
          body: variant,
        })
      ).data;
      try {
        await api.POST('/api/v1/admin/inventory', {
          body: {
            variant_public_id: created.public_id,
            quantity_on_hand: stock,
            ...(reorderLevel === null ? {} : { reorder_level: reorderLevel }),
          },
        });
        return { created, stockError: null };
      } catch (error) {
        return { created, stockError: error };
      }
    },
    invalidates: CATALOG_CHANGES,
  });
}

export function useUpdateVariant(variantId: string) {
  return useWrite({
    mutationFn: (body: BodyOf<'/api/v1/admin/variants/{variant_public_id}', 'patch'>) =>
      api.PATCH('/api/v1/admin/variants/{variant_public_id}', { params: { path: { variant_public_id: variantId } }, body }),
    invalidates: CATALOG_CHANGES,
  });
}

export function useDeleteVariant() {
  return useWrite({
    mutationFn: (variantId: string) =>
      api.DELETE('/api/v1/admin/variants/{variant_public_id}', { params: { path: { variant_public_id: variantId } } }),
    invalidates: CATALOG_CHANGES,
  });
}

/** The first stock record of a variant made without one. */
export function useCreateStockRecord() {
  return useWrite({
    mutationFn: (body: BodyOf<'/api/v1/admin/inventory', 'post'>) => api.POST('/api/v1/admin/inventory', { body }),
    invalidates: CATALOG_CHANGES,
  });
}

/** Sets the status of many products at once; each is done or refused on its own (the answer says which). */
export function useBulkProductStatus() {
  return useWrite({
    mutationFn: async (body: BodyOf<'/api/v1/admin/products/bulk-status', 'post'>) =>
      (await api.POST('/api/v1/admin/products/bulk-status', { body })).data,
    invalidates: CATALOG_CHANGES,
  });
}

/** Deletes many products at once (each as one delete would: its variants' stock records leave Inventory). */
export function useBulkDeleteProducts() {
  return useWrite({
    mutationFn: async (productIds: string[]) =>
      (await api.POST('/api/v1/admin/products/bulk-delete', { body: { product_public_ids: productIds } })).data,
    invalidates: CATALOG_CHANGES,
  });
}

/** A DRAFT copy of a product: a new slug, its variants with new SKUs and no stock. */
export function useDuplicateProduct(productId: string) {
  return useWrite({
    mutationFn: async () =>
      (await api.POST('/api/v1/admin/products/{product_public_id}/duplicate', { params: { path: { product_public_id: productId } } })).data,
    invalidates: [productKeys.all, inventoryKeys.all],
  });
}

export type VariantBatch = BodyOf<'/api/v1/admin/products/{product_public_id}/variants/batch', 'post'>;

/** Adds many variants with their stock records, all or none: the variants grid. */
export function useAddVariants(productId: string) {
  const queryClient = useQueryClient();
  return useWrite({
    mutationFn: async (body: VariantBatch) =>
      (
        await api.POST('/api/v1/admin/products/{product_public_id}/variants/batch', {
          params: { path: { product_public_id: productId } },
          body,
        })
      ).data,
    invalidates: CATALOG_CHANGES,
    onSuccess: (product) => queryClient.setQueryData(productKeys.detail(productId), product),
  });
}
