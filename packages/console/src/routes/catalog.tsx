import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { productsSearch } from '../features/catalog/search';
import { staffRoute } from './staff';

export const productsRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/products',
  validateSearch: productsSearch,
  component: lazyRouteComponent(() => import('../features/catalog/products-screen'), 'ProductsScreen'),
});

export const newProductRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/products/new',
  component: lazyRouteComponent(() => import('../features/catalog/product-screen'), 'NewProductScreen'),
});

export const productRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/products/$productId',
  component: lazyRouteComponent(() => import('../features/catalog/product-screen'), 'ProductScreen'),
});

export const categoriesRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/categories',
  component: lazyRouteComponent(() => import('../features/catalog/categories-screen'), 'CategoriesScreen'),
});
