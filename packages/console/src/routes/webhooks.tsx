import { createRoute } from '@tanstack/react-router';
import { deliveriesSearch, webhooksSearch } from '../features/webhooks/search';
import { lazyScreen } from '../lib/lazy-screen';
import { staffRoute, superOnlyScreen } from './staff';

export const webhooksRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/webhooks',
  validateSearch: webhooksSearch,
  component: superOnlyScreen(
    'Webhooks',
    lazyScreen(() => import('../features/webhooks/webhooks-screen'), 'WebhooksScreen'),
  ),
});

export const newEndpointRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/webhooks/new',
  component: superOnlyScreen(
    'Webhooks',
    lazyScreen(() => import('../features/webhooks/endpoint-screen'), 'NewEndpointScreen'),
  ),
});

export const endpointRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/webhooks/$endpointId',
  validateSearch: deliveriesSearch,
  component: superOnlyScreen(
    'Webhooks',
    lazyScreen(() => import('../features/webhooks/endpoint-screen'), 'EndpointScreen'),
  ),
});
