import { ApiError } from '@commerce/client';
import { formFailure, loading } from '$lib/server/errors';
import type { Shop } from '$lib/server/shop';
import { tokenOf } from '$lib/server/token';
import type { Actions, PageServerLoad } from './$types';
import { formOf } from '$lib/server/form-body';

/**
 * The email-change email's link. The API accepts it only from the session that asked for the change
 * (the same browser, signed in), so the page says so wherever it is opened elsewhere, before offering
 * a button that could not work there: the link is checked as the page opens, and left unused.
 */
export const load: PageServerLoad = (event) =>
  loading(event, async () => {
    const { shop } = event.locals;
    const user = await shop.user();
    const token = tokenOf(event.url);
    if (!user || !token) return { token, csrf: null, linkProblem: null };
    const [csrf, linkProblem] = await Promise.all([shop.csrf(), linkProblemOf(shop, token)]);
    return { token, csrf, linkProblem };
  });

/** Why the link does nothing in this session ('elsewhere': another session's, or unknown; 'spent'), or null when it works. */
async function linkProblemOf(shop: Shop, token: string): Promise<'elsewhere' | 'spent' | null> {
  try {
    await shop.api.POST('/api/v1/users/me/email/check', { body: { token } });
    return null;
  } catch (e) {
    if (ApiError.is(e, 'NOT_FOUND')) return 'elsewhere';
    if (ApiError.is(e, 'TOKEN_EXPIRED')) return 'spent';
    throw e;
  }
}

export const actions: Actions = {
  default: async (event) => {
    const form = await formOf(event);
    try {
      const { data } = await event.locals.shop
        .asForm(form.get('csrf'))
        .POST('/api/v1/users/me/email/verify', { body: { token: String(form.get('token') ?? '') } });
      return { changed: data.email };
    } catch (e) {
      return formFailure(
        e,
        event,
        {},
        {
          NOT_FOUND:
            'This link does not work here. It only works in the browser where you asked for the change, while you are signed in there (or the link is not valid).',
          TOKEN_EXPIRED: 'This link has expired or was used already. Ask for the change again from your account.',
          EMAIL_TAKEN: 'Another account has started using that email since you asked. Choose another one from your account.',
        },
      );
    }
  },
};
