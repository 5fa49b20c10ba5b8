// app/account/orders/page.tsx
import { cookies } from 'next/headers';
import { createCommerceClient, createCookieJar, ApiError } from '@commerce/client';

export default async function OrdersPage() {
  // One client per request, acting as this visitor: their cookies go along.
  const shop = createCommerceClient({
    baseUrl: process.env.COMMERCE_API_URL!,
    cookies: createCookieJar((await cookies()).toString()),
  });
  try {
    const { data: orders } = await shop.orders.list({ limit: 20 });
    return <ul>{orders.map((o) => <li key={o.public_id}>{o.order_number}: {o.status}, {o.total}</li>)}</ul>;
  } catch (error) {
    if (ApiError.is(error, 'UNAUTHENTICATED')) return <p>Please sign in.</p>;
    throw error;
  }
}
