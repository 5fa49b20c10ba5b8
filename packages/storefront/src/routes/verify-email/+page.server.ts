import { formFailure, loading } from '$lib/server/errors';
import { tokenOf } from '$lib/server/token';
import type { Actions, PageServerLoad } from './$types';
import { formOf } from '$lib/server/form-body';

/**
 * The verification email's link. Verifying takes one press of a button (a form with the token),
 * not the page load itself: mail scanners that open links must not spend a single-use token.
 */
export const load: PageServerLoad = (event) =>
  loading(event, async () => {
    const user = await event.locals.shop.user();
    // Opened again once verified (the email kept, a second click): nothing to do, and it says so.
    return { token: tokenOf(event.url), csrf: await event.locals.shop.csrf(), alreadyVerified: Boolean(user?.email_verified) };
  });

export const actions: Actions = {
  default: async (event) => {
    const form = await formOf(event);
    try {
      const user = await event.locals.shop.asForm(form.get('csrf')).auth.verifyEmail(String(form.get('token') ?? ''));
      return { verified: user.email };
    } catch (e) {
      return formFailure(
        e,
        event,
        {},
        {
          NOT_FOUND: 'This verification link is not valid.',
          TOKEN_EXPIRED:
            'This verification link has expired or was used already. If you used it to verify your email, there is nothing more to do.',
        },
      );
    }
  },
};
