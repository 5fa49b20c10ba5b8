import { redirect } from '@sveltejs/kit';
import { addressFrom, missingAddressFields } from '$lib/server/addresses';
import { formFailure, invalid, loading } from '$lib/server/errors';
import type { Actions, PageServerLoad } from './$types';
import { formOf } from '$lib/server/form-body';

export const load: PageServerLoad = (event) =>
  loading(event, async () => ({ address: await event.locals.shop.api.addresses.get(event.params.id) }));

export const actions: Actions = {
  default: async (event) => {
    const form = await formOf(event);
    const { values, body } = addressFrom(form);
    const missing = missingAddressFields(values);
    if (Object.keys(missing).length > 0) return invalid('Please fill in the highlighted fields.', missing, values);
    try {
      // Blank optional fields are cleared, not left as they were.
      await event.locals.shop.asForm(form.get('csrf')).addresses.update(event.params.id, {
        ...body,
        address_2: values.address_2 || null,
        zip_code: values.zip_code || null,
        label: values.label || null,
      });
    } catch (e) {
      return formFailure(e, event, values, {
        DEFAULT_ADDRESS_REQUIRED: 'Choose another default address first: one address always stays the default.',
      });
    }
    redirect(303, '/account/addresses');
  },
};
