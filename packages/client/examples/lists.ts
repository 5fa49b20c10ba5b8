import { createCommerceClient } from '@commerce/client';

const admin = createCommerceClient({ baseUrl: 'https://api.example.com' });
const shop = createCommerceClient({ baseUrl: 'https://api.example.com' });

// #region readme
for await (const { data, meta } of admin.pages('/api/v1/admin/orders', { params: { query: { status: 'PLACED', limit: 100 } } })) {
  console.log(`page ${meta.page}/${meta.totalPages}`, data.length);
}
for await (const product of shop.products.all({ category: 'cat_...' })) console.log(product.name);
// #endregion
