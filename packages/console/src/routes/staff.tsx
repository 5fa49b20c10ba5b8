import { createRoute, redirect } from '@tanstack/react-router';
import { AppLayout } from '../components/AppLayout';
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

/** For SUPER_ADMIN-only screens: an ADMIN who follows a link lands on the dashboard, not on a 403. */
export function superOnly({ context }: { context: { user: { role: string } } }) {
  if (context.user.role !== 'SUPER_ADMIN') throw redirect({ to: '/' });
}
