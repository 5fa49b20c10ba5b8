import { ApiError } from '@commerce/client';
import { redirect } from '@sveltejs/kit';
import { formFailure, loading } from '$lib/server/errors';
import type { Actions, PageServerLoad } from './$types';
import { formOf } from '$lib/server/form-body';

export const load: PageServerLoad = (event) =>
  loading(event, async () => ({
    sessions: (await event.locals.shop.api.page('/api/v1/auth/sessions', { params: { query: { limit: 100 } } })).data,
  }));

export const actions: Actions = {
  revoke: async (event) => {
    const form = await formOf(event);
    const id = String(form.get('session') ?? '');
    try {
      await event.locals.shop
        .asForm(form.get('csrf'))
        .DELETE('/api/v1/auth/sessions/{session_public_id}', { params: { path: { session_public_id: id } } });
    } catch (e) {
      if (!ApiError.is(e, 'NOT_FOUND')) return formFailure(e, event);
    }
    if (form.get('current') === 'true') {
      event.locals.shop.forgetUser();
      redirect(303, '/');
    }
    return { revoked: true };
  },
  others: async (event) => {
    const form = await formOf(event);
    try {
      await event.locals.shop.asForm(form.get('csrf')).DELETE('/api/v1/auth/sessions');
      return { revokedOthers: true };
    } catch (e) {
      return formFailure(e, event);
    }
  },
};
