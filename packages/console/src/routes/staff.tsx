import { createRoute, redirect } from '@tanstack/react-router';
import type { ComponentType } from 'react';
import { AppLayout } from '../components/AppLayout';
import { SuperOnly } from '../components/SuperOnly';
import { isStaff, sessionQuery } from '../api/session';
import { rootRoute } from './root';

/** Every screen but sign-in lives under this guard: no staff session, back to sign-in (and then here). */
export const staffRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'staff',
  beforeLoad: async ({ context, location }) => {
    const user = await context.queryClient.ensureQueryData(sessionQuery);
    if (!isStaff(user)) {
      throw redirect({ to: '/sign-in', search: { redirect: location.href } });
    }
    return { user: user! };
  },
  component: AppLayout,
});

/**
 * A SUPER_ADMIN-only screen: an ADMIN who follows a link to it is told why it does not open (its code
 * is not even loaded), rather than sent to the dashboard without a word.
 */
export function superOnlyScreen(screen: string, Screen: ComponentType) {
  return function SuperOnlyScreen() {
    return (
      <SuperOnly screen={screen}>
        <Screen />
      </SuperOnly>
    );
  };
}
