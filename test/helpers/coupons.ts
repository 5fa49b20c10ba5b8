import { randomBytes } from 'node:crypto';
import { checkout, sellableVariant, shopper } from './commerce.js';
import { API, ok } from './orders.js';
import { useApp } from './use-app.js';

/** Admin-coupon test helpers: the endpoint, unique codes, and a file's app with shorthands bound to it. */

export const COUPONS = `${API}/admin/coupons`;
export const HOUR = 3_600_000;
export const code = (label = 'C') => `${label}${randomBytes(4).toString('hex')}`.toUpperCase();

/**
 * The app of a coupon test file (an ADMIN, the rate limits that buying in a
 * loop would hit off, the email worker idle) with a 20.00 variant in plenty
 * of stock (`variant()`, read inside tests), and shorthands bound to both.
 */
export function useCouponApp() {
  let variantId = '';
  const t = useApp({
    env: { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_CHECKOUT: '0', EMAIL_POLL_INTERVAL_MS: '600000' },
    as: ['ADMIN'],
    async seed(t) {
      variantId = (await sellableVariant(t.admin, { price: '20.00', stock: 1000 })).variantId;
    },
  });
  const variant = () => variantId;

  /** An instant relative to the service clock (which tests move forward). */
  const inHours = (hours: number) => new Date(t.clock.now().getTime() + hours * HOUR).toISOString();
  const statusOf = async (id: string) => ok(await t.admin.get(`${COUPONS}/${id}`)).status;

  /** A customer with `quantity` units of the 20.00 variant in the cart. */
  const buyer = (quantity = 1) => shopper(t, [{ variantId: variant(), quantity }]);
  const buy = async (couponCode: string, quantity = 1) => {
    const s = await buyer(quantity);
    return ok(await checkout(s.client, s.addressId, { coupon_code: couponCode }), 201);
  };
  return { t, variant, inHours, statusOf, buyer, buy };
}
