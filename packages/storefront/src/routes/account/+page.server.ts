import { formFailure, invalid, loading } from '$lib/server/errors';
import type { Actions, PageServerLoad } from './$types';
import { formOf } from '$lib/server/form-body';

export const load: PageServerLoad = (event) =>
  loading(event, async () => ({ profile: await event.locals.shop.api.account.get(), welcome: event.url.searchParams.has('welcome') }));

export const actions: Actions = {
  profile: async (event) => {
    const form = await formOf(event);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const values = { first_name: text('first_name'), last_name: text('last_name'), phone_number: text('phone_number') };
    if (!values.first_name || !values.last_name) {
      return invalid(
        'Please fill in your name.',
        Object.fromEntries(['first_name', 'last_name'].filter((n) => !values[n as 'first_name']).map((n) => [n, 'Please fill this in.'])),
        values,
      );
    }
    try {
      await event.locals.shop.asForm(form.get('csrf')).account.update({
        first_name: values.first_name,
        last_name: values.last_name,
        phone_number: values.phone_number || null,
      });
      return { saved: true };
    } catch (e) {
      return formFailure(e, event, values);
    }
  },
  resend: async (event) => {
    const form = await formOf(event);
    try {
      await event.locals.shop.asForm(form.get('csrf')).auth.resendVerification();
      return { resent: true };
    } catch (e) {
      return formFailure(e, event, {}, { ALREADY_VERIFIED: 'Your email is verified already.' });
    }
  },
};
