import { createRoute, redirect } from '@tanstack/react-router';
import { lazyScreen } from '../lib/lazy-screen';
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
  component: lazyScreen(() => import('../features/sign-in/sign-in-screen'), 'SignInScreen'),
});
