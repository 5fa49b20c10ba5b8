import { createHash } from 'node:crypto';
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
  // The default boxes too, so a refused form comes back as it was sent.
  const defaults = {
    is_default_shipping: form.get('is_default_shipping') ? '1' : '',
    is_default_billing: form.get('is_default_billing') ? '1' : '',
  };
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
    ...(defaults.is_default_shipping ? { is_default_shipping: true } : {}),
    ...(defaults.is_default_billing ? { is_default_billing: true } : {}),
  };
  return { values: { ...values, ...defaults }, body };
}

/** Required fields the form left blank, as field errors (the API would say the same, less kindly). */
export function missingAddressFields(values: Record<string, string>): Record<string, string> {
  const required = ['recipient_name', 'phone_number', 'address_1', 'city', 'state', 'country'];
  return Object.fromEntries(required.filter((name) => !values[name]).map((name) => [name, 'Please fill this in.']));
}

/**
 * The Idempotency-Key an address form's add is sent with: the key its page was rendered with (its hidden
 * `address_key` field) joined to what the form holds. The same form sent twice (pressed twice without JavaScript,
 * sent again after a lost answer) adds one address; a changed form, or the page rendered anew after an
 * add, makes a key of its own, so an add is never refused for a reused key. None for a form without one.
 */
export function addressKey(form: FormData, body: BodyOf<'/api/v1/users/me/addresses', 'post'>): string | undefined {
  const page = String(form.get('address_key') ?? '');
  if (!/^[\w-]{1,64}$/.test(page)) return undefined;
  return `${page}:${createHash('sha256').update(JSON.stringify(body)).digest('base64url')}`;
}
