import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { isStaff, sessionQuery } from '../api/session';
import { signInSearch } from '../features/sign-in/search';
import { rootRoute } from './root';

export const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sign-in',
  validateSearch: signInSearch,
  beforeLoad: async ({ context }) => {
    // Already signed in as staff: nothing to do here.
    if (isStaff(await context.queryClient.ensureQueryData(sessionQuery))) throw redirect({ to: '/' });
  },
  component: lazyRouteComponent(() => import('../features/sign-in/sign-in-screen'), 'SignInScreen'),
});
