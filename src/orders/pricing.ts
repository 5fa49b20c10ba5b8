import { fromCents, percentOf, toCents, type Cents } from '../lib/money.js';

/**
 * Order totals in integer cents (contract section 8): shipping is a flat fee
 * unless the subtotal reaches the free-shipping threshold; tax applies to the
 * discounted subtotal; the discount never exceeds the subtotal.
 */
export interface PricingRules {
  shippingFlat: string;
  freeShippingFrom: string;
  taxRate: string;
}

export interface Totals {
  subtotal: Cents;
  discount: Cents;
  shipping: Cents;
  tax: Cents;
  total: Cents;
}

export interface PricedLine {
  unitPrice: string;
  quantity: number;
}

/** Cart lines (a live price each) as the pricing takes them. */
export const pricedLines = (lines: readonly { price: string; quantity: number }[]): PricedLine[] =>
  lines.map((line) => ({ unitPrice: line.price, quantity: line.quantity }));

/** The lines' subtotal: what a coupon's minimum and percentage are measured against. */
export const subtotalOf = (lines: readonly PricedLine[]): Cents =>
  lines.reduce((sum, line) => sum + toCents(line.unitPrice) * line.quantity, 0);

export function priceOrder(lines: readonly PricedLine[], discount: Cents, rules: PricingRules): Totals {
  const subtotal = subtotalOf(lines);
  const applied = Math.min(Math.max(discount, 0), subtotal);
  const shipping = subtotal >= toCents(rules.freeShippingFrom) ? 0 : toCents(rules.shippingFlat);
  const tax = percentOf(subtotal - applied, rules.taxRate);
  return { subtotal, discount: applied, shipping, tax, total: subtotal - applied + shipping + tax };
}

/** The totals as an order (and its quote) states them: decimal strings. */
export const amountsOf = (totals: Totals) => ({
  subtotal: fromCents(totals.subtotal),
  discount_total: fromCents(totals.discount),
  shipping_total: fromCents(totals.shipping),
  tax_total: fromCents(totals.tax),
  total: fromCents(totals.total),
});
