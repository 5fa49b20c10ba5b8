import { formFailure, invalid } from '$lib/server/errors';
import type { Actions } from './$types';
import { formOf } from '$lib/server/form-body';

export const actions: Actions = {
  default: async (event) => {
    const form = await formOf(event);
    const email = String(form.get('new_email') ?? '').trim();
    const password = String(form.get('password') ?? '');
    if (!email || !password) {
      return invalid(
        'Fill in the new email and your password.',
        { ...(email ? {} : { new_email: 'Enter the new email.' }), ...(password ? {} : { password: 'Enter your password.' }) },
        { new_email: email },
      );
    }
    try {
      await event.locals.shop.asForm(form.get('csrf')).POST('/api/v1/users/me/email', { body: { new_email: email, password } });
      return { sent: email };
    } catch (e) {
      return formFailure(
        e,
        event,
        { new_email: email },
        {
          INVALID_PASSWORD: 'Your password is not right.',
          EMAIL_TAKEN: 'Another account uses that email.',
        },
      );
    }
  },
};
