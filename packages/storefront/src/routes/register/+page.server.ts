import { redirect } from '@sveltejs/kit';
import { afterMerge, mergeGuestCart } from '$lib/server/cart';
import { formFailure, invalid, loading } from '$lib/server/errors';
import { safeNext } from '$lib/server/next';
import type { Actions, PageServerLoad } from './$types';
import { formOf } from '$lib/server/form-body';

export const load: PageServerLoad = (event) =>
  loading(event, async () => {
    const { shop } = event.locals;
    const next = safeNext(event.url.searchParams.get('next'), '/account?welcome=1');
    if (await shop.user()) redirect(303, next);
    return { csrf: await shop.csrf(), next };
  });

export const actions: Actions = {
  default: async (event) => {
    const { shop } = event.locals;
    const form = await formOf(event);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const values = {
      first_name: text('first_name'),
      last_name: text('last_name'),
      email: text('email'),
      phone_number: text('phone_number'),
    };
    const password = String(form.get('password') ?? '');
    const next = safeNext(text('next'), '/account?welcome=1');
    const missing = Object.fromEntries(
      (['first_name', 'last_name', 'email'] as const).filter((name) => !values[name]).map((name) => [name, 'Please fill this in.']),
    );
    if (!password) missing.password = 'Choose a password.';
    if (Object.keys(missing).length > 0) return invalid('Please fill in the highlighted fields.', missing, values);
    try {
      await shop.asForm(form.get('csrf')).auth.register({
        first_name: values.first_name,
        last_name: values.last_name,
        email: values.email,
        password,
        ...(values.phone_number ? { phone_number: values.phone_number } : {}),
      });
    } catch (e) {
      const failure = formFailure(e, event, values, { EMAIL_TAKEN: 'An account with this email already exists.' });
      // At the field, with the ways in (the page links them under the form's notice).
      if (failure.data.code === 'EMAIL_TAKEN')
        failure.data.errors.email = 'This email already has an account: sign in, or reset its password.';
      return failure;
    }
    shop.forgetUser();
    redirect(303, afterMerge(event, await mergeGuestCart(shop), next));
  },
};
