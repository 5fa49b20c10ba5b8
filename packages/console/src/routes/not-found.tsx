import { createRoute } from '@tanstack/react-router';
import { ScreenNotFound } from '../components/ScreenNotFound';
import { staffRoute } from './staff';

/**
 * Every address no screen claims (the splat matches only when nothing more specific does). A route of
 * its own rather than the router's default not-found screen, which the root renders: this one is behind
 * the same sign-in as every screen, in the console's frame, with the menu to go on from.
 */
export const notFoundRoute = createRoute({
  getParentRoute: () => staffRoute,
  path: '$',
  component: ScreenNotFound,
});
