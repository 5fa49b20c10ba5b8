import { ApiError } from '@commerce/client';
import { redirect } from '@sveltejs/kit';
import { API_COOKIES } from '$lib/server/cookie-names';
import { formFailure, loading } from '$lib/server/errors';
import type { Actions, PageServerLoad } from './$types';
import { formOf } from '$lib/server/form-body';

/** Signing out is a form (a POST with the CSRF token); this page holds one for anyone who lands here. */
export const load: PageServerLoad = (event) =>
  loading(event, async () => {
    const { shop } = event.locals;
    if (!(await shop.user())) redirect(303, '/');
    return { csrf: await shop.csrf() };
  });

export const actions: Actions = {
  default: async (event) => {
    const form = await formOf(event);
    try {
      await event.locals.shop.asForm(form.get('csrf')).auth.logout();
    } catch (e) {
      // Already signed out (expired or revoked elsewhere): nothing left to end.
      if (!ApiError.is(e, 'UNAUTHENTICATED')) return formFailure(e, event);
      event.cookies.delete(API_COOKIES.session, { path: '/', secure: event.url.protocol === 'https:' });
    }
    redirect(303, '/');
  },
};
