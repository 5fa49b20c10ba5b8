import { randomUUID } from 'node:crypto';
import { ApiError } from '@commerce/client';
import { addressFrom, addressKey, missingAddressFields } from '$lib/server/addresses';
import { formFailure, invalid, loading } from '$lib/server/errors';
import type { Actions, PageServerLoad } from './$types';
import { formOf } from '$lib/server/form-body';

export const load: PageServerLoad = (event) =>
  loading(event, async () => ({
    addresses: (await event.locals.shop.api.addresses.list({ limit: 100 })).data,
    /** The add form's key (addressKey): made anew with every render, so each page adds an address once. */
    key: randomUUID(),
  }));

const idOf = (form: FormData) => String(form.get('address') ?? '');

/** The defaults the removed address held, as its form said (for the words about which address holds them now). */
const heldDefaults = (form: FormData) =>
  form.getAll('held').filter((role): role is 'shipping' | 'billing' => role === 'shipping' || role === 'billing');

export const actions: Actions = {
  add: async (event) => {
    const form = await formOf(event);
    const { values, body } = addressFrom(form);
    const missing = missingAddressFields(values);
    if (Object.keys(missing).length > 0) return invalid('Please fill in the highlighted fields.', missing, values);
    try {
      await event.locals.shop.asForm(form.get('csrf')).addresses.create(body, { idempotencyKey: addressKey(form, body) });
      return { added: true };
    } catch (e) {
      return formFailure(e, event, values, { ADDRESS_BOOK_FULL: 'Your address book is full. Remove an address first.' });
    }
  },
  /**
   * Asks first (`confirmed` absent: the page shows the question under that address), then removes. A form
   * round trip rather than a script's dialog, so it reads the same with and without JavaScript.
   */
  remove: async (event) => {
    const form = await formOf(event);
    if (form.get('confirmed') !== '1') return { confirmRemove: idOf(form) };
    try {
      await event.locals.shop.asForm(form.get('csrf')).addresses.remove(idOf(form));
      return { removed: true, held: heldDefaults(form) };
    } catch (e) {
      if (ApiError.is(e, 'NOT_FOUND')) return { removed: true, held: [] };
      return formFailure(e, event);
    }
  },
  /**
   * Makes an address the default for shipping or billing (`role`); the API moves the flag from the one
   * that held it. Not `default`: SvelteKit refuses every action of a page that has both a default and named ones.
   */
  makeDefault: async (event) => {
    const form = await formOf(event);
    const role = form.get('role') === 'billing' ? 'is_default_billing' : 'is_default_shipping';
    try {
      await event.locals.shop.asForm(form.get('csrf')).addresses.update(idOf(form), { [role]: true });
      return { defaulted: role === 'is_default_billing' ? 'billing' : 'shipping' };
    } catch (e) {
      return formFailure(e, event);
    }
  },
};
