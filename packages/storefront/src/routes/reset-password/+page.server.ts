import { ApiError, type CommerceClient } from '@commerce/client';
import { redirect } from '@sveltejs/kit';
import { formFailure, invalid, loading } from '$lib/server/errors';
import { tokenOf } from '$lib/server/token';
import type { Actions, PageServerLoad } from './$types';
import { formOf } from '$lib/server/form-body';

const LINK_PROBLEMS = {
  NOT_FOUND: 'This reset link is not valid. Ask for a new one below.',
  TOKEN_EXPIRED: 'This reset link has expired or was used already. Ask for a new one below.',
};

/**
 * The password-reset email's link: choose a new password (every session of the account is then signed
 * out). A link that no longer works says so as the page opens, before a password is typed for nothing.
 */
export const load: PageServerLoad = (event) =>
  loading(event, async () => {
    const token = tokenOf(event.url);
    const shop = event.locals.shop;
    const [linkProblem, csrf] = await Promise.all([token ? linkProblemOf(shop.api, token) : null, shop.csrf()]);
    return { token, csrf, linkProblem };
  });

async function linkProblemOf(api: CommerceClient, token: string): Promise<string | null> {
  try {
    await api.auth.checkPasswordReset(token);
    return null;
  } catch (e) {
    if (ApiError.is(e, 'NOT_FOUND', 'TOKEN_EXPIRED')) return LINK_PROBLEMS[e.code];
    throw e;
  }
}

export const actions: Actions = {
  default: async (event) => {
    const form = await formOf(event);
    const token = String(form.get('token') ?? '');
    const password = String(form.get('password') ?? '');
    const confirm = String(form.get('confirm') ?? '');
    if (!password) return invalid('Choose a new password.', { password: 'Choose a new password.' });
    if (password !== confirm) return invalid('The two passwords are not the same.', { confirm: 'Type the same password again.' });
    try {
      await event.locals.shop.asForm(form.get('csrf')).auth.resetPassword(token, password);
    } catch (e) {
      return formFailure(e, event, {}, LINK_PROBLEMS, { new_password: 'password' });
    }
    event.locals.shop.forgetUser();
    redirect(303, '/login?reason=reset');
  },
};
