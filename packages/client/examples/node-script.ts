// scripts/low-stock.ts: run with tsx or Bun (or Node 22.6+ with --experimental-strip-types)
import { createCommerceClient, type ItemOf } from '@commerce/client';

const admin = createCommerceClient({ baseUrl: process.env.COMMERCE_API_URL ?? 'http://localhost:3000' }); // an in-memory cookie jar by default
await admin.auth.login({ email: process.env.ADMIN_EMAIL!, password: process.env.ADMIN_PASSWORD! });

// Collect first: a restocked record leaves LOW_STOCK, which would shift the pages still to come.
const low: ItemOf<'/api/v1/admin/inventory'>[] = [];
for await (const record of admin.items('/api/v1/admin/inventory', { params: { query: { stock_status: 'LOW_STOCK', limit: 100 } } })) low.push(record);

for (const record of low) {
  // A stock write: an Idempotency-Key is generated, and reused if the network drops and the write is retried.
  const { data: restocked } = await admin.PATCH('/api/v1/admin/inventory/{variant_public_id}', {
    params: { path: { variant_public_id: record.variant_public_id } },
    body: { quantity_change: 50, reason: 'restock' },
  });
  console.log(`${record.sku}: ${record.quantity_available} -> ${restocked.quantity_available}`);
}

const { data: pnl } = await admin.GET('/api/v1/admin/analytics/pnl', { params: { query: { from: `${new Date().getFullYear()}-01-01` } } });
console.log(`net profit this year: ${pnl.total.net_profit}`);
