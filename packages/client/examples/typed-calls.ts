import { createCommerceClient } from '@commerce/client';

const admin = createCommerceClient({ baseUrl: 'https://api.example.com' });

// #region readme
const { data: order } = await admin.GET('/api/v1/admin/orders/{order_public_id}', {
  params: { path: { order_public_id: 'ord_...' } },
});
await admin.PATCH('/api/v1/admin/orders/{order_public_id}', {
  params: { path: { order_public_id: order.public_id } },
  body: { status: 'SHIPPED', carrier: 'DHL', tracking_number: '123' },
});
// #endregion
