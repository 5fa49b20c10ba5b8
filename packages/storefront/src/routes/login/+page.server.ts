import { redirect } from '@sveltejs/kit';
import { afterMerge, mergeGuestCart } from '$lib/server/cart';
import { formFailure, invalid, loading } from '$lib/server/errors';
import { safeNext, SIGN_IN_REASONS } from '$lib/server/next';
import type { Actions, PageServerLoad } from './$types';
import { formOf } from '$lib/server/form-body';

export const load: PageServerLoad = (event) =>
  loading(event, async () => {
    const { shop } = event.locals;
    const next = safeNext(event.url.searchParams.get('next'));
    if (await shop.user()) redirect(303, next);
    const reason = SIGN_IN_REASONS[event.url.searchParams.get('reason') ?? ''] ?? null;
    return { csrf: await shop.csrf(), next, reason };
  });

export const actions: Actions = {
  default: async (event) => {
    const { shop } = event.locals;
    const form = await formOf(event);
    const email = String(form.get('email') ?? '').trim();
    const password = String(form.get('password') ?? '');
    const next = safeNext(String(form.get('next') ?? ''));
    const values = { email };
    if (!email || !password) {
      return invalid(
        'Enter your email and password.',
        { ...(email ? {} : { email: 'Enter your email.' }), ...(password ? {} : { password: 'Enter your password.' }) },
        values,
      );
    }
    try {
      await shop.asForm(form.get('csrf')).auth.login({ email, password });
    } catch (e) {
      return formFailure(e, event, values, {
        INVALID_CREDENTIALS: 'That email and password do not match an account.',
        FORBIDDEN: 'This account is suspended. Please contact us.',
      });
    }
    shop.forgetUser();
    redirect(303, afterMerge(event, await mergeGuestCart(shop), next));
  },
};
