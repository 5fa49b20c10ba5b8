import { createRouter } from '@tanstack/react-router';
import { queryClient } from './api/client';
import { ScreenError } from './components/ScreenError';
import { noteNavigation } from './lib/arrival';
import { parseSearchText, stringifySearchText } from './lib/search';
import { accountRoute, auditRoute } from './routes/account';
import { categoriesRoute, newProductRoute, productRoute, productsRoute } from './routes/catalog';
import { couponRoute, couponsRoute, newCouponRoute } from './routes/coupons';
import { customerRoute, customersRoute } from './routes/customers';
import { dashboardRoute } from './routes/dashboard';
import { inventoryRoute, stockRecordRoute } from './routes/inventory';
import { moneyRoute } from './routes/money';
import { notFoundRoute } from './routes/not-found';
import { orderRoute, ordersRoute } from './routes/orders';
import { reviewsRoute } from './routes/reviews';
import { rootRoute } from './routes/root';
import { signInRoute } from './routes/sign-in';
import { staffRoute } from './routes/staff';
import { acceptInvitationRoute, invitationsRoute } from './routes/staff-invitations';
import { transferRoute } from './routes/transfer';
import { endpointRoute, newEndpointRoute, webhooksRoute } from './routes/webhooks';

const routeTree = rootRoute.addChildren([
  signInRoute,
  acceptInvitationRoute,
  staffRoute.addChildren([
    dashboardRoute,
    ordersRoute,
    orderRoute,
    moneyRoute,
    customersRoute,
    customerRoute,
    accountRoute,
    auditRoute,
    inventoryRoute,
    stockRecordRoute,
    reviewsRoute,
    couponsRoute,
    newCouponRoute,
    couponRoute,
    productsRoute,
    newProductRoute,
    productRoute,
    categoriesRoute,
    transferRoute,
    invitationsRoute,
    webhooksRoute,
    newEndpointRoute,
    endpointRoute,
    notFoundRoute,
  ]),
]);

export const router = createRouter({
  routeTree,
  basepath: '/admin',
  context: { queryClient },
  defaultPreload: 'intent',
  // Screens read through TanStack Query; the router only decides which screen, so loaders need no cache of their own.
  defaultPreloadStaleTime: 0,
  scrollRestoration: true,
  parseSearch: parseSearchText,
  stringifySearch: stringifySearchText,
  // A screen that fails (its code did not arrive, or it threw) shows in the frame, with a heading and a way back.
  defaultErrorComponent: ScreenError,
});

router.history.subscribe(noteNavigation);

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
