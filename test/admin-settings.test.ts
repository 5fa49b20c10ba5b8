import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errorOf } from './helpers/factories.js';
import { useApp } from './helpers/use-app.js';

const t = useApp({
  env: { CURRENCY: 'EUR', SHIPPING_FLAT: '4.90', FREE_SHIPPING_FROM: '60.00', TAX_RATE: '20', DEFAULT_REORDER_LEVEL: '8' },
  as: ['CUSTOMER', 'ADMIN'],
});

test('staff read the store settings the configuration sets; customers and strangers do not', async () => {
  const response = await t.admin.get('/api/v1/admin/settings');
  assert.equal(response.status, 200, response.text);
  assert.deepEqual(response.body.data, {
    currency: 'EUR',
    shipping_flat: '4.90',
    free_shipping_from: '60.00',
    tax_rate: '20',
    default_reorder_level: 8,
  });
  assert.equal(errorOf(await t.customer.get('/api/v1/admin/settings')).code, 'FORBIDDEN');
  assert.equal(errorOf(await t.anonymous.get('/api/v1/admin/settings')).code, 'UNAUTHENTICATED');
});
