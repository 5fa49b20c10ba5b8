import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { isStaff, sessionQuery } from '../session';
import { text } from '../lib/search';
import { rootRoute } from './root';

export const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sign-in',
  validateSearch: (search: Record<string, unknown>): { redirect?: string | undefined } => ({ redirect: text(search.redirect, 500) }),
  beforeLoad: async ({ context }) => {
    // Already signed in as staff: nothing to do here.
    if (isStaff(await context.queryClient.ensureQueryData(sessionQuery))) throw redirect({ to: '/' });
  },
  component: lazyRouteComponent(() => import('../screens/sign-in'), 'SignInScreen'),
});
