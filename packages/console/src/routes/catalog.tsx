import { createRoute } from '@tanstack/react-router';
import { lazyScreen } from '../lib/lazy-screen';
import { productsSearch } from '../features/catalog/search';
import { staffRoute } from './staff';

export const productsRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/products',
  validateSearch: productsSearch,
  component: lazyScreen(() => import('../features/catalog/products-screen'), 'ProductsScreen'),
});

export const newProductRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/products/new',
  component: lazyScreen(() => import('../features/catalog/product-screen'), 'NewProductScreen'),
});

export const productRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/products/$productId',
  component: lazyScreen(() => import('../features/catalog/product-screen'), 'ProductScreen'),
});

export const categoriesRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/categories',
  component: lazyScreen(() => import('../features/catalog/categories-screen'), 'CategoriesScreen'),
});
