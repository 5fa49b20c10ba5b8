import { Type, type Static } from 'typebox';
import { VISIBLE } from '../lib/text.js';
import { Timestamp } from '../lib/schemas.js';
import type { AddressRow } from '../db/schema.js';

/** Field bounds exactly as the spec's Address table; address lines are also capped at 255. */
const text = (min: number, max: number, description?: string) =>
  Type.String({ minLength: min, maxLength: max, ...(min > 0 ? { pattern: VISIBLE } : {}), ...(description ? { description } : {}) });
const nullable = <T extends ReturnType<typeof text>>(schema: T) => Type.Union([schema, Type.Null()]);

const fields = {
  recipient_name: text(1, 100),
  phone_number: text(1, 20, 'Up to 20 characters'),
  label: nullable(text(0, 50, 'Free label such as "Home" or "Office"')),
  country: text(1, 100, 'Name or code'),
  state: text(1, 100, 'State, province or region'),
  city: text(1, 100),
  address_1: text(1, 255),
  address_2: nullable(text(0, 255)),
  zip_code: nullable(text(0, 20)),
  is_default_shipping: Type.Boolean({ description: 'Setting it moves the default here; the first address always holds it' }),
  is_default_billing: Type.Boolean({ description: 'Setting it moves the default here; the first address always holds it' }),
};

export const AddressCreate = Type.Object(
  {
    recipient_name: fields.recipient_name,
    phone_number: fields.phone_number,
    label: Type.Optional(fields.label),
    country: fields.country,
    state: fields.state,
    city: fields.city,
    address_1: fields.address_1,
    address_2: Type.Optional(fields.address_2),
    zip_code: Type.Optional(fields.zip_code),
    is_default_shipping: Type.Optional(fields.is_default_shipping),
    is_default_billing: Type.Optional(fields.is_default_billing),
  },
  { additionalProperties: false },
);
export type AddressCreate = Static<typeof AddressCreate>;

export const AddressPatch = Type.Object(
  Object.fromEntries(Object.entries(fields).map(([name, schema]) => [name, Type.Optional(schema)])) as {
    [K in keyof typeof fields]: ReturnType<typeof Type.Optional<(typeof fields)[K]>>;
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description:
      'At least one field; omitted fields stay unchanged. Unsetting a default the address holds is 409 DEFAULT_ADDRESS_REQUIRED.',
  },
);
export type AddressPatch = Static<typeof AddressPatch>;

/** The postal part of an address: what an order keeps as its shipping address. */
export const AddressSnapshot = Type.Object({
  recipient_name: Type.String(),
  phone_number: Type.String(),
  label: Type.Union([Type.String(), Type.Null()]),
  country: Type.String(),
  state: Type.String(),
  city: Type.String(),
  address_1: Type.String(),
  address_2: Type.Union([Type.String(), Type.Null()]),
  zip_code: Type.Union([Type.String(), Type.Null()]),
});
export type AddressSnapshot = Static<typeof AddressSnapshot>;

export const Address = Type.Object(
  {
    public_id: Type.String({ description: 'Prefixed `adr_`' }),
    ...AddressSnapshot.properties,
    is_default_shipping: Type.Boolean(),
    is_default_billing: Type.Boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Address' },
);
export type Address = Static<typeof Address>;

export function toAddressSnapshot(row: AddressRow): AddressSnapshot {
  return {
    recipient_name: row.recipient_name,
    phone_number: row.phone_number,
    label: row.label,
    country: row.country,
    state: row.state,
    city: row.city,
    address_1: row.address_1,
    address_2: row.address_2,
    zip_code: row.zip_code,
  };
}

export function toAddress(row: AddressRow): Address {
  return {
    public_id: row.public_id,
    ...toAddressSnapshot(row),
    is_default_shipping: row.is_default_shipping,
    is_default_billing: row.is_default_billing,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
