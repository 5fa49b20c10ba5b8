import { percentOf, toCents, type Cents } from '../lib/money.js';

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

export function priceOrder(lines: readonly { unitPrice: string; quantity: number }[], discount: Cents, rules: PricingRules): Totals {
  const subtotal = lines.reduce((sum, line) => sum + toCents(line.unitPrice) * line.quantity, 0);
  const applied = Math.min(Math.max(discount, 0), subtotal);
  const shipping = subtotal >= toCents(rules.freeShippingFrom) ? 0 : toCents(rules.shippingFlat);
  const tax = percentOf(subtotal - applied, rules.taxRate);
  return { subtotal, discount: applied, shipping, tax, total: subtotal - applied + shipping + tax };
}
