import { redirect } from '@sveltejs/kit';
import { formFailure, invalid, loading } from '$lib/server/errors';
import { tokenOf } from '$lib/server/token';
import type { Actions, PageServerLoad } from './$types';

/** The password-reset email's link: choose a new password (every session of the account is then signed out). */
export const load: PageServerLoad = (event) =>
  loading(event, async () => ({ token: tokenOf(event.url), csrf: await event.locals.shop.csrf() }));

export const actions: Actions = {
  default: async (event) => {
    const form = await event.request.formData();
    const token = String(form.get('token') ?? '');
    const password = String(form.get('password') ?? '');
    const confirm = String(form.get('confirm') ?? '');
    if (!password) return invalid('Choose a new password.', { password: 'Choose a new password.' });
    if (password !== confirm) return invalid('The two passwords are not the same.', { confirm: 'Type the same password again.' });
    try {
      await event.locals.shop.asForm(form.get('csrf')).auth.resetPassword(token, password);
    } catch (e) {
      return formFailure(
        e,
        event,
        {},
        {
          NOT_FOUND: 'This reset link is not valid. Ask for a new one below.',
          TOKEN_EXPIRED: 'This reset link has expired or was used already. Ask for a new one below.',
        },
        { new_password: 'password' },
      );
    }
    event.locals.shop.forgetUser();
    redirect(303, '/login?reason=reset');
  },
};
