import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addressInput, errorOf } from './helpers/factories.js';
import { ADDRESSES, ADDRESS_FIELDS, ISO_UTC, addressRow, addressRows, createAddress, customer } from './helpers/addresses.js';
import { useApp } from './helpers/use-app.js';

const t = useApp({ env: { RATE_LIMIT_REGISTER: '0' } });

describe('address CRUD', () => {
  test('create is 201 with the full Address shape; omitted optionals are null; the row matches', async () => {
    const { client, userId } = await customer(t);
    const response = await client.post(ADDRESSES, {
      recipient_name: 'Grace Hopper',
      phone_number: '+1 202 555 0100',
      country: 'US',
      state: 'Virginia',
      city: 'Arlington',
      address_1: '1 Navy Way',
    });
    assert.equal(response.status, 201, response.text);
    assert.equal(response.body.success, true);
    assert.deepEqual(Object.keys(response.body).sort(), ['data', 'success']);
    const data = response.body.data;
    assert.deepEqual(Object.keys(data).sort(), [...ADDRESS_FIELDS].sort());
    assert.match(data.public_id, /^adr_[0-9A-Za-z_-]{16,}$/);
    assert.deepEqual(
      { ...data, public_id: undefined, created_at: undefined, updated_at: undefined },
      {
        public_id: undefined,
        recipient_name: 'Grace Hopper',
        phone_number: '+1 202 555 0100',
        label: null,
        country: 'US',
        state: 'Virginia',
        city: 'Arlington',
        address_1: '1 Navy Way',
        address_2: null,
        zip_code: null,
        is_default_shipping: true, // first address of the account
        is_default_billing: true,
        created_at: undefined,
        updated_at: undefined,
      },
    );
    assert.match(data.created_at, ISO_UTC);
    assert.match(data.updated_at, ISO_UTC);
    assert.ok(Math.abs(Date.parse(data.created_at) - Date.now()) < 60_000, 'created_at is now');

    const rows = await addressRows(t, userId);
    assert.equal(rows.length, 1);
    const row = rows[0]!;
    assert.equal(row.public_id, data.public_id);
    assert.equal(row.recipient_name, 'Grace Hopper');
    assert.equal(row.label, null);
    assert.equal(row.zip_code, null);
    assert.equal(row.address_2, null);
    assert.equal(row.deleted_at, null);
    assert.equal(row.created_at.toISOString(), data.created_at);
    assert.equal(row.updated_at.toISOString(), data.updated_at);
  });

  test('create stores every optional field that is sent', async () => {
    const { client } = await customer(t);
    const input = addressInput({ address_2: 'Flat 3', label: 'Office', zip_code: '90210' });
    const data = await createAddress(client, input);
    for (const [field, value] of Object.entries(input)) assert.deepEqual(data[field], value, field);
    const row = await addressRow(t, data.public_id);
    assert.equal(row.address_2, 'Flat 3');
    assert.equal(row.label, 'Office');
    assert.equal(row.zip_code, '90210');
  });

  test('public IDs are unique per address', async () => {
    const { client } = await customer(t);
    const a = await createAddress(client);
    const b = await createAddress(client);
    assert.notEqual(a.public_id, b.public_id);
  });

  test('an add sent again with its Idempotency-Key, even many at once, adds one address; the key with another address is 409', async () => {
    const { client, userId } = await customer(t);
    const input = addressInput({ address_1: '4 Privet Drive' });
    const headers = { 'idempotency-key': 'add-once-1' };
    const answers = await Promise.all(Array.from({ length: 8 }, () => client.post(ADDRESSES, input, { headers })));
    for (const answer of answers) assert.equal(answer.status, 201, answer.text);
    assert.equal(new Set(answers.map((answer) => answer.body.data.public_id)).size, 1, 'every answer names the one address');
    assert.equal(answers.filter((answer) => answer.headers.get('idempotent-replayed') === 'true').length, 7);
    assert.equal((await addressRows(t, userId)).length, 1);

    const other = await client.post(ADDRESSES, addressInput({ address_1: '5 Privet Drive' }), { headers });
    assert.equal(other.status, 409);
    assert.equal(errorOf(other).code, 'IDEMPOTENCY_KEY_REUSED');
    // Without a key, each add is an address of its own.
    for (let i = 0; i < 2; i++) assert.equal((await client.post(ADDRESSES, input)).status, 201);
    assert.equal((await addressRows(t, userId)).length, 3);
  });

  test('get is 200 with the same record the create returned', async () => {
    const { client } = await customer(t);
    const created = await createAddress(client, { label: 'Cottage', address_2: 'Rear entrance' });
    const response = await client.get(`${ADDRESSES}/${created.public_id}`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { success: true, data: created });
  });

  test('patch is 200 with the full updated record; omitted fields stay unchanged', async () => {
    const { client } = await customer(t);
    const created = await createAddress(client, { address_2: 'Flat 1' });
    t.clock.advance(1000); // updated_at is stamped with the service's clock
    const response = await client.patch(`${ADDRESSES}/${created.public_id}`, { city: 'Manchester', zip_code: 'M1 1AA' });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.success, true);
    const data = response.body.data;
    assert.deepEqual({ ...data, updated_at: undefined }, { ...created, city: 'Manchester', zip_code: 'M1 1AA', updated_at: undefined });
    assert.match(data.updated_at, ISO_UTC);
    assert.ok(Date.parse(data.updated_at) > Date.parse(created.updated_at), 'updated_at moves forward');

    const fetched = await client.get(`${ADDRESSES}/${created.public_id}`);
    assert.deepEqual(fetched.body.data, data);
    const row = await addressRow(t, created.public_id);
    assert.equal(row.city, 'Manchester');
    assert.equal(row.zip_code, 'M1 1AA');
    assert.equal(row.address_2, 'Flat 1');
    assert.equal(row.recipient_name, created.recipient_name);
  });

  test('patch can clear the nullable optionals with null', async () => {
    const { client } = await customer(t);
    const created = await createAddress(client, { address_2: 'Flat 1', label: 'Home', zip_code: 'N1' });
    const response = await client.patch(`${ADDRESSES}/${created.public_id}`, { address_2: null, label: null, zip_code: null });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.data.address_2, null);
    assert.equal(response.body.data.label, null);
    assert.equal(response.body.data.zip_code, null);
    const row = await addressRow(t, created.public_id);
    assert.deepEqual([row.address_2, row.label, row.zip_code], [null, null, null]);
  });

  test('patch can change every field at once', async () => {
    const { client } = await customer(t);
    const created = await createAddress(client);
    const changes = {
      recipient_name: 'Charles Babbage',
      phone_number: '+44 1 2345',
      label: 'Workshop',
      country: 'United Kingdom',
      state: 'Devon',
      city: 'Totnes',
      address_1: '5 Engine Lane',
      address_2: 'Unit 2',
      zip_code: 'TQ9',
    };
    const response = await client.patch(`${ADDRESSES}/${created.public_id}`, changes);
    assert.equal(response.status, 200, response.text);
    for (const [field, value] of Object.entries(changes)) assert.equal(response.body.data[field], value, field);
    assert.equal(response.body.data.public_id, created.public_id);
    assert.equal(response.body.data.created_at, created.created_at);
  });

  test('delete is 204 with an empty body; then get is 404, it leaves the list, and the row is soft-deleted', async () => {
    const { client, userId } = await customer(t);
    const keep = await createAddress(client);
    const gone = await createAddress(client);
    const response = await client.delete(`${ADDRESSES}/${gone.public_id}`);
    assert.equal(response.status, 204);
    assert.equal(response.text, '');

    const get = await client.get(`${ADDRESSES}/${gone.public_id}`);
    assert.equal(get.status, 404);
    assert.equal(errorOf(get).code, 'NOT_FOUND');
    const list = await client.get(ADDRESSES);
    assert.deepEqual(
      list.body.data.map((a: any) => a.public_id),
      [keep.public_id],
    );
    assert.equal(list.body.meta.total, 1);

    const row = await addressRow(t, gone.public_id);
    assert.ok(row.deleted_at instanceof Date, 'deleted_at is set');
    assert.ok(Math.abs(row.deleted_at.getTime() - Date.now()) < 60_000);
    assert.equal(row.recipient_name, gone.recipient_name, 'the row keeps its data');
    assert.equal((await addressRows(t, userId)).length, 2, 'nothing is hard-deleted');
  });

  test('a deleted address cannot be patched or deleted again (404) and stays deleted', async () => {
    const { client } = await customer(t);
    await createAddress(client);
    const gone = await createAddress(client);
    assert.equal((await client.delete(`${ADDRESSES}/${gone.public_id}`)).status, 204);
    const before = await addressRow(t, gone.public_id);

    const patch = await client.patch(`${ADDRESSES}/${gone.public_id}`, { city: 'Revived' });
    assert.equal(patch.status, 404);
    assert.equal(errorOf(patch).code, 'NOT_FOUND');
    const again = await client.delete(`${ADDRESSES}/${gone.public_id}`);
    assert.equal(again.status, 404);
    assert.equal(errorOf(again).code, 'NOT_FOUND');
    const flag = await client.patch(`${ADDRESSES}/${gone.public_id}`, { is_default_shipping: true });
    assert.equal(flag.status, 404);

    assert.deepEqual(await addressRow(t, gone.public_id), before);
  });
});
