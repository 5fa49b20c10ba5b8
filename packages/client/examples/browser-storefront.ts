import { createCommerceClient, ApiError } from '@commerce/client';

const shop = createCommerceClient({ baseUrl: '' }); // or location.origin; the browser keeps the cookie

export async function addToCart(variantId: string) {
  try {
    return await shop.cart.add({ variant_public_id: variantId, quantity: 1 });
  } catch (error) {
    if (ApiError.is(error, 'UNAUTHENTICATED')) location.assign('/login');
    else throw error;
  }
}

export async function checkout(addressId: string, coupon?: string) {
  // Keep the key across reloads so a resubmitted checkout is the same checkout.
  const idempotencyKey = sessionStorage.getItem('checkout-key') ?? crypto.randomUUID();
  sessionStorage.setItem('checkout-key', idempotencyKey);
  const order = await shop.orders.place({ address_public_id: addressId, payment_method: 'mock', coupon_code: coupon }, { idempotencyKey });
  sessionStorage.removeItem('checkout-key');
  return order;
}

export async function attachPhoto(file: File) {
  const { url } = await shop.upload(file); // to ImageKit or the service's own host
  return { image_url: url };
}
