import type { BodyOf } from '@commerce/client';

export const ADDRESS_FIELDS = [
  'recipient_name',
  'phone_number',
  'address_1',
  'address_2',
  'city',
  'state',
  'zip_code',
  'country',
  'label',
] as const;

/** An address form's values as typed (to put back on a refusal) and as the API takes them (blank optional fields left out). */
export function addressFrom(form: FormData): { values: Record<string, string>; body: BodyOf<'/api/v1/users/me/addresses', 'post'> } {
  const values = Object.fromEntries(ADDRESS_FIELDS.map((name) => [name, String(form.get(name) ?? '').trim()])) as Record<
    (typeof ADDRESS_FIELDS)[number],
    string
  >;
  const body: BodyOf<'/api/v1/users/me/addresses', 'post'> = {
    recipient_name: values.recipient_name,
    phone_number: values.phone_number,
    address_1: values.address_1,
    city: values.city,
    state: values.state,
    country: values.country,
    ...(values.address_2 ? { address_2: values.address_2 } : {}),
    ...(values.zip_code ? { zip_code: values.zip_code } : {}),
    ...(values.label ? { label: values.label } : {}),
    ...(form.get('is_default_shipping') ? { is_default_shipping: true } : {}),
    ...(form.get('is_default_billing') ? { is_default_billing: true } : {}),
  };
  return { values, body };
}

/** Required fields the form left blank, as field errors (the API would say the same, less kindly). */
export function missingAddressFields(values: Record<string, string>): Record<string, string> {
  const required = ['recipient_name', 'phone_number', 'address_1', 'city', 'state', 'country'];
  return Object.fromEntries(required.filter((name) => !values[name]).map((name) => [name, 'Please fill this in.']));
}
