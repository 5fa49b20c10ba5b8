import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { oneOf, page, text } from '../lib/search';
import { staffRoute } from './staff';

export const PRODUCT_STATUSES = ['DRAFT', 'ACTIVE', 'ARCHIVED'] as const;
export const PRODUCT_SORTS = ['-created_at', 'created_at', 'name', '-name', 'price', '-price'] as const;

export interface ProductsSearch {
  page?: number | undefined;
  q?: string | undefined;
  status?: (typeof PRODUCT_STATUSES)[number] | undefined;
  sort?: (typeof PRODUCT_SORTS)[number] | undefined;
}

export const productsRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/products',
  validateSearch: (search: Record<string, unknown>): ProductsSearch => ({
    page: search.page === undefined ? undefined : page(search.page),
    q: text(search.q),
    status: oneOf(search.status, PRODUCT_STATUSES),
    sort: oneOf(search.sort, PRODUCT_SORTS),
  }),
  component: lazyRouteComponent(() => import('../screens/products'), 'ProductsScreen'),
});

export const newProductRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/products/new',
  component: lazyRouteComponent(() => import('../screens/product'), 'NewProductScreen'),
});

export const productRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/products/$productId',
  component: lazyRouteComponent(() => import('../screens/product'), 'ProductScreen'),
});

export const categoriesRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/categories',
  component: lazyRouteComponent(() => import('../screens/categories'), 'CategoriesScreen'),
});
