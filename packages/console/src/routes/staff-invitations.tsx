import { createRoute } from '@tanstack/react-router';
import { invitationsSearch } from '../features/staff/search';
import { acceptInvitationSearch } from '../features/invitation/search';
import { lazyScreen } from '../lib/lazy-screen';
import { rootRoute } from './root';
import { staffRoute, superOnlyScreen } from './staff';

export const invitationsRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '/invitations',
  validateSearch: invitationsSearch,
  component: superOnlyScreen(
    'Invitations',
    lazyScreen(() => import('../features/staff/invitations-screen'), 'InvitationsScreen'),
  ),
});

/** The link an invitation's email carries: public, since the person has no account yet. */
export const acceptInvitationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/accept-invitation',
  validateSearch: acceptInvitationSearch,
  component: lazyScreen(() => import('../features/invitation/accept-screen'), 'AcceptInvitationScreen'),
});
