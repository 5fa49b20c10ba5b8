import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { RunningApp } from './app.js';
import type { Client } from './client.js';
import { addressInput, signUp } from './factories.js';

/** Address-book test helpers: the base path, creation, and checks of database state. */

export const ADDRESSES = '/api/v1/users/me/addresses';

/** Every field of the Address resource, in the spec's order. */
export const ADDRESS_FIELDS = [
  'public_id',
  'recipient_name',
  'phone_number',
  'label',
  'country',
  'state',
  'city',
  'address_1',
  'address_2',
  'zip_code',
  'is_default_shipping',
  'is_default_billing',
  'created_at',
  'updated_at',
] as const;

export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/** A signed-up customer, with its internal user id for database checks. */
export async function customer(t: RunningApp) {
  const account = await signUp(t);
  const row = await t.db.selectFrom('users').select('id').where('public_id', '=', String(account.user.public_id)).executeTakeFirstOrThrow();
  return { ...account, userId: row.id };
}

/** An Address as the API returns it. */
export type AddressData = Record<string, any> & { public_id: string; is_default_shipping: boolean; is_default_billing: boolean };

/** Creates an address over HTTP and insists on 201. */
export async function createAddress(client: Client, overrides: Record<string, unknown> = {}): Promise<AddressData> {
  const response = await client.post(ADDRESSES, addressInput(overrides));
  assert.equal(response.status, 201, response.text);
  return response.body.data as AddressData;
}

/** Moves created_at (what "newest" and "oldest" mean) of one address, or of every address of an account. */
export async function setCreatedAt(t: RunningApp, target: { publicId: string } | { userId: number }, at: Date) {
  if ('publicId' in target) await sql`UPDATE addresses SET created_at = ${at} WHERE public_id = ${target.publicId}`.execute(t.db);
  else await sql`UPDATE addresses SET created_at = ${at} WHERE user_id = ${target.userId}`.execute(t.db);
}

/** Every address row of an account (active and deleted), in a stable order, for before/after comparisons. */
export function addressRows(t: RunningApp, userId: number) {
  return t.db.selectFrom('addresses').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

export async function addressRow(t: RunningApp, publicId: string) {
  return t.db.selectFrom('addresses').selectAll().where('public_id', '=', publicId).executeTakeFirstOrThrow();
}

type Flags = { is_default_shipping: boolean; is_default_billing: boolean };

/** [is_default_shipping, is_default_billing] of an address, as the API or the database has it. */
export const flagsOf = (a: Flags): [boolean, boolean] => [a.is_default_shipping, a.is_default_billing];

/** The default flags of one address, read from the database. */
export async function storedFlags(t: RunningApp, publicId: string) {
  return flagsOf(await addressRow(t, publicId));
}

/**
 * The invariant of contract section 4, read from the database: an account with
 * active addresses has exactly one default shipping and one default billing
 * address, both active; one without has none; deleted rows hold no flag.
 * Returns the holders' public IDs.
 */
export async function assertDefaultInvariant(t: RunningApp, userId: number) {
  const rows = await addressRows(t, userId);
  const active = rows.filter((r) => r.deleted_at === null);
  const shipping = rows.filter((r) => r.is_default_shipping);
  const billing = rows.filter((r) => r.is_default_billing);
  const expected = active.length > 0 ? 1 : 0;
  assert.equal(shipping.length, expected, `default shipping holders among ${active.length} active: ${shipping.length}`);
  assert.equal(billing.length, expected, `default billing holders among ${active.length} active: ${billing.length}`);
  for (const holder of [...shipping, ...billing]) assert.equal(holder.deleted_at, null, 'a deleted address holds a default');
  return { shipping: shipping[0]?.public_id ?? null, billing: billing[0]?.public_id ?? null, active: active.length };
}
