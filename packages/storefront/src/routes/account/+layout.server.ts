import { redirect } from '@sveltejs/kit';
import { loading, signInPath } from '$lib/server/errors';
import type { LayoutServerLoad } from './$types';

/** Every account page: signed in only, with the CSRF token its forms carry. */
export const load: LayoutServerLoad = (event) =>
  loading(event, async () => {
    const { shop } = event.locals;
    if (!(await shop.user())) redirect(303, signInPath(event, 'account'));
    return { csrf: await shop.csrf() };
  });
