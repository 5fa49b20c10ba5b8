import type { TestApp } from './app.js';
import { API, expectStatus } from './catalog.js';
import { checkout, tag } from './commerce.js';
import { addressInput, signInAs, signUp } from './factories.js';

/**
 * A small store with something on every console screen, made through the API as an operator and a
 * customer would: categories, a product with three variants, stock with movements, a coupon used by
 * an order that was confirmed and shipped, a second order waiting, a review, an expense. `texts`
 * replaces the words people typed (names, titles, address lines), e.g. with the longest the API takes.
 */
export interface StoreTexts {
  category: string;
  product: string;
  variant: string;
  firstName: string;
  lastName: string;
  recipient: string;
  addressLine: string;
  city: string;
  reviewTitle: string;
  reviewComment: string;
  note: string;
  expense: string;
  brand: string;
  /** Added to the SKUs' unique stem (at most 80 characters in all). */
  skuStem: string;
  /** Added to the coupon code's unique stem (at most 50 characters in all). */
  couponStem: string;
  addressLine2: string;
  state: string;
  country: string;
  label: string;
  phone: string;
  zip: string;
  reason: string;
  endpointDescription: string;
}

const DEFAULT_TEXTS: StoreTexts = {
  category: 'Mugs',
  product: 'Speckled stoneware mug',
  variant: 'Blue',
  firstName: 'Ada',
  lastName: 'Lovelace',
  recipient: 'Ada Lovelace',
  addressLine: '12 St James Square',
  city: 'London',
  reviewTitle: 'Pours beautifully',
  reviewComment: 'Heavy, warm, and the glaze is lovely.',
  note: 'Please leave it at the door',
  expense: 'Courier pickups',
  brand: 'Falcon',
  skuStem: 'MUG',
  couponStem: 'WELCOME',
  addressLine2: '',
  state: 'Greater London',
  country: 'GB',
  label: 'Home',
  phone: '+44 20 7946 0000',
  zip: 'SW1Y 4JH',
  reason: 'Delivery from the potter',
  endpointDescription: 'Warehouse',
};

export async function consoleStore(t: TestApp, texts: Partial<StoreTexts> = {}) {
  const words = { ...DEFAULT_TEXTS, ...texts };
  const admin = await signInAs(t, 'SUPER_ADMIN');
  const c = admin.client;
  const id = tag();

  const kitchen = expectStatus(await c.post(`${API}/admin/categories`, { name: `Kitchen ${id}` }), 201);
  const category = expectStatus(
    await c.post(`${API}/admin/categories`, { name: words.category, parent_public_id: kitchen.public_id }),
    201,
  );
  const product = expectStatus(
    await c.post(`${API}/admin/products`, {
      name: words.product,
      brand: words.brand,
      description: 'Hand thrown.',
      status: 'ACTIVE',
      category_public_ids: [category.public_id],
    }),
    201,
  );
  const variants: { public_id: string; sku: string }[] = [];
  for (const size of ['S', 'M', 'L']) {
    const variant = expectStatus(
      await c.post(`${API}/admin/products/${product.public_id}/variants`, {
        sku: `${words.skuStem}-${id}-${size}`.slice(-80),
        name: `${words.variant}, ${size}`,
        options: { size, colour: words.variant },
        price: '18.00',
        compare_at_price: '24.00',
        cost_price: '6.50',
      }),
      201,
    );
    expectStatus(
      await c.post(`${API}/admin/inventory`, { variant_public_id: variant.public_id, quantity_on_hand: 20, reorder_level: 5 }),
      201,
    );
    variants.push(variant);
  }
  const [first] = variants;
  expectStatus(await c.patch(`${API}/admin/inventory/${first!.public_id}`, { quantity_change: 6, reason: words.reason }), 200);

  const coupon = expectStatus(
    await c.post(`${API}/admin/coupons`, {
      code: `${words.couponStem}${id}`.slice(-50),
      discount_type: 'PERCENTAGE',
      discount_value: '10',
    }),
    201,
  );

  const customer = await signUp(t, { first_name: words.firstName, last_name: words.lastName });
  const address = expectStatus(
    await customer.client.post(
      `${API}/users/me/addresses`,
      addressInput({
        recipient_name: words.recipient,
        address_1: words.addressLine,
        address_2: words.addressLine2 || null,
        city: words.city,
        state: words.state,
        country: words.country,
        label: words.label,
        phone_number: words.phone,
        zip_code: words.zip,
      }),
    ),
    201,
  );
  const placeOrder = async (extra: Record<string, unknown>) => {
    for (const v of variants.slice(0, 2)) {
      expectStatus(await customer.client.post(`${API}/cart/items`, { variant_public_id: v.public_id, quantity: 2 }), 200);
    }
    return expectStatus(await checkout(customer.client, address.public_id, extra), 201);
  };
  const shipped = await placeOrder({ coupon_code: coupon.code, notes: words.note });
  expectStatus(await c.patch(`${API}/admin/orders/${shipped.public_id}`, { status: 'CONFIRMED', note: 'Paid, packing' }), 200);
  expectStatus(
    await c.patch(`${API}/admin/orders/${shipped.public_id}`, { status: 'SHIPPED', carrier: 'DHL', tracking_number: 'JD0002' }),
    200,
  );
  const waiting = await placeOrder({});

  const review = expectStatus(
    await customer.client.post(`${API}/reviews`, {
      product_public_id: product.public_id,
      rating: 4,
      title: words.reviewTitle,
      comment: words.reviewComment,
    }),
    201,
  );
  expectStatus(
    await c.post(`${API}/admin/expenses`, {
      description: words.expense,
      category: 'SHIPPING',
      amount: '45.00',
      spent_at: new Date().toISOString().slice(0, 10),
    }),
    201,
  );

  const invitation = expectStatus(
    await c.post(`${API}/admin/staff-invitations`, { email: `clerk-${id.toLowerCase()}@example.test`, role: 'ADMIN' }),
    201,
  );
  // A host that never resolves (.invalid): the test event's delivery fails, as a receiver that is down does.
  const endpoint = expectStatus(
    await c.post(`${API}/admin/webhooks/endpoints`, {
      url: `https://hooks.invalid/shop-${id.toLowerCase()}`,
      description: words.endpointDescription,
      event_types: ['order.placed', 'order.status_changed', 'order.cancelled'],
    }),
    201,
  );
  expectStatus(await c.post(`${API}/admin/webhooks/endpoints/${endpoint.public_id}/test`), 202);

  return { admin, customer, product, category, variants, coupon, address, shipped, waiting, review, invitation, endpoint, words };
}

export type ConsoleStore = Awaited<ReturnType<typeof consoleStore>>;

/** Every screen of the console for `store`, with what shows once it has its data. */
export function consoleScreens(store: ConsoleStore): { name: string; path: string; ready: string }[] {
  return [
    { name: 'dashboard', path: '/admin/', ready: 'Top products' },
    { name: 'orders', path: '/admin/orders', ready: store.shipped.order_number },
    { name: 'order', path: `/admin/orders/${store.shipped.public_id}`, ready: 'Ship to' },
    { name: 'products', path: '/admin/products', ready: store.product.name },
    { name: 'product', path: `/admin/products/${store.product.public_id}`, ready: store.variants[0]!.sku },
    { name: 'categories', path: '/admin/categories', ready: 'New category' },
    { name: 'inventory', path: '/admin/inventory', ready: store.variants[0]!.sku },
    { name: 'stock-record', path: `/admin/inventory/${store.variants[0]!.public_id}`, ready: store.words.reason },
    { name: 'reviews', path: '/admin/reviews', ready: 'Moderation note (internal)' },
    { name: 'coupons', path: '/admin/coupons', ready: store.coupon.code },
    { name: 'coupon', path: `/admin/coupons/${store.coupon.public_id}`, ready: store.shipped.order_number },
    { name: 'customers', path: '/admin/customers', ready: store.customer.email },
    { name: 'customer', path: `/admin/customers/${store.customer.user.public_id}`, ready: store.shipped.order_number },
    { name: 'money', path: '/admin/money', ready: 'Operating expenses' },
    { name: 'audit', path: '/admin/audit', ready: 'inventory.adjust' },
    { name: 'account', path: '/admin/account', ready: 'This session' },
    { name: 'import-export', path: '/admin/import-export', ready: 'Export orders' },
    { name: 'invitations', path: '/admin/invitations', ready: store.invitation.email },
    { name: 'webhooks', path: '/admin/webhooks', ready: store.endpoint.url },
    { name: 'webhook-endpoint', path: `/admin/webhooks/${store.endpoint.public_id}`, ready: 'webhook.test' },
  ];
}
