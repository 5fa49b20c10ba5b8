import { formFailure, invalid } from '$lib/server/errors';
import type { Actions } from './$types';
import { formOf } from '$lib/server/form-body';

export const actions: Actions = {
  default: async (event) => {
    const form = await formOf(event);
    const current = String(form.get('current_password') ?? '');
    const next = String(form.get('new_password') ?? '');
    if (!current || !next) {
      return invalid('Fill in both passwords.', {
        ...(current ? {} : { current_password: 'Enter your current password.' }),
        ...(next ? {} : { new_password: 'Choose a new password.' }),
      });
    }
    if (next !== String(form.get('confirm') ?? ''))
      return invalid('The new passwords are not the same.', { confirm: 'Type the same new password again.' });
    try {
      await event.locals.shop.asForm(form.get('csrf')).account.changePassword({ current_password: current, new_password: next });
      return { changed: true };
    } catch (e) {
      return formFailure(e, event, {}, { INVALID_PASSWORD: 'Your current password is not right.' });
    }
  },
};
