import { randomBytes } from 'node:crypto';
import type { RunningApp } from './app.js';
import type { Client } from './client.js';
import { checkout, shopper } from './commerce.js';
import { API, ok } from './orders.js';

/** Admin-coupon test helpers: the endpoint, unique codes, and shorthands bound to a file's app. */

export const COUPONS = `${API}/admin/coupons`;
export const HOUR = 3_600_000;
export const code = (label = 'C') => `${label}${randomBytes(4).toString('hex')}`.toUpperCase();

/**
 * Shorthands for the coupon tests of a file, bound to its app (`t`, with an
 * ADMIN) and to the 20.00 variant its seed made (`variant()`, read when
 * called).
 */
export function couponShorthands(t: RunningApp & { readonly admin: Client }, variant: () => string) {
  /** An instant relative to the service clock (which tests move forward). */
  const inHours = (hours: number) => new Date(t.clock.now().getTime() + hours * HOUR).toISOString();
  const statusOf = async (id: string) => ok(await t.admin.get(`${COUPONS}/${id}`)).status;

  /** A customer with `quantity` units of the 20.00 variant in the cart. */
  const buyer = (quantity = 1) => shopper(t, [{ variantId: variant(), quantity }]);
  const buy = async (couponCode: string, quantity = 1) => {
    const s = await buyer(quantity);
    return ok(await checkout(s.client, s.addressId, { coupon_code: couponCode }), 201);
  };
  return { inHours, statusOf, buyer, buy };
}
