import { formFailure, invalid, loading } from '$lib/server/errors';
import type { Actions, PageServerLoad } from './$types';
import { formOf } from '$lib/server/form-body';

export const load: PageServerLoad = (event) => loading(event, async () => ({ csrf: await event.locals.shop.csrf() }));

export const actions: Actions = {
  default: async (event) => {
    const form = await formOf(event);
    const email = String(form.get('email') ?? '').trim();
    if (!email) return invalid('Enter the email of your account.', { email: 'Enter your email.' });
    try {
      await event.locals.shop.asForm(form.get('csrf')).auth.requestPasswordReset(email);
    } catch (e) {
      return formFailure(e, event, { email });
    }
    // The API answers the same whether or not the account exists, and so does this page.
    return { sent: email };
  },
};
