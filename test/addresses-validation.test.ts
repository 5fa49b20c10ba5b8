import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addressInput, errorOf } from './helpers/factories.js';
import { ADDRESSES, addressRow, addressRows, createAddress, customer } from './helpers/addresses.js';
import { useApp } from './helpers/use-app.js';

const t = useApp({ env: { RATE_LIMIT_REGISTER: '0' } });

const REQUIRED = ['recipient_name', 'phone_number', 'country', 'state', 'city', 'address_1'] as const;
const chars = (n: number, c = 'x') => c.repeat(n);
/** n characters outside the Basic Multilingual Plane: 2n UTF-16 code units. */
const astral = (n: number) => '😀'.repeat(n);

function without(field: string) {
  const input: Record<string, unknown> = addressInput();
  delete input[field];
  return input;
}

/** Field values the spec's Address table allows, at or just inside each bound. */
const ACCEPTED: [string, Record<string, unknown>][] = [
  ['recipient_name of 1 character', { recipient_name: 'A' }],
  ['recipient_name of 100 characters', { recipient_name: chars(100) }],
  ['recipient_name of 100 non-BMP characters', { recipient_name: astral(100) }],
  ['phone_number of 20 characters', { phone_number: chars(20, '1') }],
  ['label of 0 characters', { label: '' }],
  ['label of 50 characters', { label: chars(50) }],
  ['country of 1 character', { country: 'X' }],
  ['country of 100 characters', { country: chars(100) }],
  ['state of 1 character', { state: 'X' }],
  ['state of 100 characters', { state: chars(100) }],
  ['city of 1 character', { city: 'X' }],
  ['city of 100 characters', { city: chars(100) }],
  ['address_1 of 1 character', { address_1: '1' }],
  ['address_2 of 0 characters', { address_2: '' }],
  ['zip_code of 0 characters', { zip_code: '' }],
  ['zip_code of 20 characters', { zip_code: chars(20, '9') }],
  ['unicode text', { recipient_name: 'Zoë Ñúñez 李雷', city: 'São Paulo', state: 'SP', country: 'Brasil' }],
];

/** Values just outside a bound, or of the wrong type, with the field the error must name. */
const REJECTED: [string, Record<string, unknown>, string][] = [
  ['recipient_name of 0 characters', { recipient_name: '' }, 'recipient_name'],
  ['recipient_name of 101 characters', { recipient_name: chars(101) }, 'recipient_name'],
  ['recipient_name of 101 non-BMP characters', { recipient_name: astral(101) }, 'recipient_name'],
  ['recipient_name as a number', { recipient_name: 42 }, 'recipient_name'],
  ['recipient_name null', { recipient_name: null }, 'recipient_name'],
  ['phone_number of 21 characters', { phone_number: chars(21, '1') }, 'phone_number'],
  ['phone_number as a number', { phone_number: 2079460000 }, 'phone_number'],
  ['label of 51 characters', { label: chars(51) }, 'label'],
  ['label as a number', { label: 7 }, 'label'],
  ['country of 0 characters', { country: '' }, 'country'],
  ['country of 101 characters', { country: chars(101) }, 'country'],
  ['state of 0 characters', { state: '' }, 'state'],
  ['state of 101 characters', { state: chars(101) }, 'state'],
  ['city of 0 characters', { city: '' }, 'city'],
  ['city of 101 characters', { city: chars(101) }, 'city'],
  ['address_1 empty', { address_1: '' }, 'address_1'],
  ['address_1 null', { address_1: null }, 'address_1'],
  ['address_2 as an object', { address_2: { line: 'x' } }, 'address_2'],
  ['zip_code of 21 characters', { zip_code: chars(21, '9') }, 'zip_code'],
  ['zip_code as a number', { zip_code: 90210 }, 'zip_code'],
  ['is_default_shipping "true" (bodies are not coerced)', { is_default_shipping: 'true' }, 'is_default_shipping'],
  ['is_default_shipping 1', { is_default_shipping: 1 }, 'is_default_shipping'],
  ['is_default_shipping null', { is_default_shipping: null }, 'is_default_shipping'],
  ['is_default_billing "false"', { is_default_billing: 'false' }, 'is_default_billing'],
  ['is_default_billing 0', { is_default_billing: 0 }, 'is_default_billing'],
  ['an unknown field', { nickname: 'Castle' }, 'nickname'],
  ['a server-set field (public_id)', { public_id: 'adr_AAAAAAAAAAAAAAAAAAAA' }, 'public_id'],
  ['a server-set field (created_at)', { created_at: '2020-01-01T00:00:00.000Z' }, 'created_at'],
  ['an internal field (user_id)', { user_id: 1 }, 'user_id'],
  ['an internal field (deleted_at)', { deleted_at: null }, 'deleted_at'],
];

function assertValidationError(response: { status: number; body: any; text: string }, field?: string, label = '') {
  assert.equal(response.status, 400, `${label}: ${response.text}`);
  const error = errorOf(response);
  assert.equal(error.code, 'VALIDATION_ERROR');
  if (field) {
    assert.ok(
      error.details?.some((d) => d.field === field),
      `${label}: details name ${field}: ${JSON.stringify(error.details)}`,
    );
  }
  return error;
}

describe('address create validation', () => {
  for (const [name, overrides] of ACCEPTED) {
    test(`accepts ${name} and stores it exactly`, async () => {
      const { client } = await customer(t);
      const data = await createAddress(client, overrides);
      const row = await addressRow(t, data.public_id);
      for (const [field, value] of Object.entries(overrides)) {
        assert.equal(data[field], value, `response ${field}`);
        assert.equal((row as Record<string, unknown>)[field], value, `stored ${field}`);
      }
    });
  }

  test('rejects each value outside its bound with 400 VALIDATION_ERROR naming the field; nothing is stored', async () => {
    const { client, userId } = await customer(t);
    await createAddress(client);
    const before = await addressRows(t, userId);
    for (const [name, overrides, field] of REJECTED) {
      const response = await client.post(ADDRESSES, addressInput(overrides));
      assertValidationError(response, field, name);
    }
    assert.deepEqual(await addressRows(t, userId), before);
  });

  for (const field of REQUIRED) {
    test(`a missing ${field} is 400 VALIDATION_ERROR naming it as required`, async () => {
      const { client, userId } = await customer(t);
      const response = await client.post(ADDRESSES, without(field));
      const error = assertValidationError(response, field);
      assert.deepEqual(
        error.details?.find((d) => d.field === field),
        { field, message: 'is required' },
      );
      assert.equal((await addressRows(t, userId)).length, 0);
    });
  }

  test('the optional fields may all be omitted', async () => {
    const { client } = await customer(t);
    const body = Object.fromEntries(REQUIRED.map((f) => [f, addressInput()[f]]));
    const response = await client.post(ADDRESSES, body);
    assert.equal(response.status, 201, response.text);
  });

  test('several invalid fields are all named in details', async () => {
    const { client, userId } = await customer(t);
    const input = without('city');
    Object.assign(input, { recipient_name: '', zip_code: chars(21), is_default_billing: 'yes', extra: true });
    const error = assertValidationError(await client.post(ADDRESSES, input));
    const fields = new Set(error.details?.map((d) => d.field));
    for (const field of ['city', 'recipient_name', 'zip_code', 'is_default_billing', 'extra']) {
      assert.ok(fields.has(field), `${field} in ${JSON.stringify(error.details)}`);
    }
    assert.equal((await addressRows(t, userId)).length, 0);
  });

  test('a body that is not an object, or no body at all, is 400 and stores nothing', async () => {
    const { client, userId } = await customer(t);
    for (const raw of ['[]', '"address"', 'null', '42', '']) {
      const response = await client.post(ADDRESSES, undefined, { raw, headers: { 'content-type': 'application/json' } });
      assert.equal(response.status, 400, `${JSON.stringify(raw)}: ${response.text}`);
      assert.ok(['VALIDATION_ERROR', 'INVALID_JSON'].includes(errorOf(response).code));
    }
    assert.equal((await client.post(ADDRESSES)).status, 400);
    assert.equal((await addressRows(t, userId)).length, 0);
  });
});

describe('address patch validation', () => {
  test('rejects each value outside its bound, even beside a valid change; nothing changes', async () => {
    const { client, userId } = await customer(t);
    const address = await createAddress(client);
    await createAddress(client);
    const before = await addressRows(t, userId);
    for (const [name, overrides, field] of REJECTED) {
      const response = await client.patch(`${ADDRESSES}/${address.public_id}`, { city: 'Changed', ...overrides });
      assertValidationError(response, field, name);
    }
    assert.deepEqual(await addressRows(t, userId), before);
    assert.equal((await client.get(`${ADDRESSES}/${address.public_id}`)).body.data.city, address.city);
  });

  test('null is rejected for each required field', async () => {
    const { client, userId } = await customer(t);
    const address = await createAddress(client);
    const before = await addressRows(t, userId);
    for (const field of REQUIRED) {
      assertValidationError(await client.patch(`${ADDRESSES}/${address.public_id}`, { [field]: null }), field);
    }
    assert.deepEqual(await addressRows(t, userId), before);
  });

  test('PATCH {} is 400 and changes nothing', async () => {
    const { client, userId } = await customer(t);
    const address = await createAddress(client);
    const before = await addressRows(t, userId);
    assertValidationError(await client.patch(`${ADDRESSES}/${address.public_id}`, {}));
    assert.deepEqual(await addressRows(t, userId), before);
  });

  test('PATCH with only an unknown field is 400 naming it and changes nothing', async () => {
    const { client, userId } = await customer(t);
    const address = await createAddress(client);
    const before = await addressRows(t, userId);
    assertValidationError(await client.patch(`${ADDRESSES}/${address.public_id}`, { citty: 'Typo' }), 'citty');
    assert.deepEqual(await addressRows(t, userId), before);
  });

  test('PATCH without a body is 400 and changes nothing', async () => {
    const { client, userId } = await customer(t);
    const address = await createAddress(client);
    const before = await addressRows(t, userId);
    assert.equal((await client.patch(`${ADDRESSES}/${address.public_id}`)).status, 400);
    const raw = await client.patch(`${ADDRESSES}/${address.public_id}`, undefined, { raw: '[{"city":"x"}]' });
    assertValidationError(raw);
    assert.deepEqual(await addressRows(t, userId), before);
  });

  test('accepts each bound just inside on patch', async () => {
    const { client } = await customer(t);
    const address = await createAddress(client);
    for (const [name, overrides] of ACCEPTED) {
      const response = await client.patch(`${ADDRESSES}/${address.public_id}`, overrides);
      assert.equal(response.status, 200, `${name}: ${response.text}`);
      for (const [field, value] of Object.entries(overrides)) assert.equal(response.body.data[field], value, name);
      const row = await addressRow(t, address.public_id);
      for (const [field, value] of Object.entries(overrides)) {
        assert.equal((row as Record<string, unknown>)[field], value, `stored ${name}`);
      }
    }
  });
});
