import { count } from '../../lib/format';

/** How the catalog's forms read what people type, and what deleting does, as the API does it. */

export const MONEY = /^\d{1,10}(\.\d{1,2})?$/;
export const WHOLE = /^\d{1,10}$/;

/** Variant fields the API names differently from the forms: every `options.<name>` error belongs to the Options input. */
export const variantField = (field: string) => (field.startsWith('options.') ? 'options' : field);

/** "size=M, colour=Blue" to { size: 'M', colour: 'Blue' }; null when a part has no "=". */
export function parseOptions(text: string): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, ...rest] = part.split('=');
    const value = rest.join('=').trim();
    if (!name?.trim() || !value) return null;
    out[name.trim()] = value;
  }
  return out;
}

/** { size: 'M', colour: 'Blue' } as it is typed: "size=M, colour=Blue". */
export const optionsText = (options: Record<string, string>) =>
  Object.entries(options)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');

/** What the deletion texts need of a variant. */
export interface VariantStock {
  sku: string;
  inventory: { quantity_on_hand: number; quantity_reserved: number } | null;
}

/** "The 2 units reserved by open orders stay reserved: …", in the singular for one unit. */
export function reservedByOrders(units: number): string {
  const one = units === 1;
  return `The ${count(units)} ${one ? 'unit' : 'units'} reserved by open orders ${one ? 'stays' : 'stay'} reserved: those orders still ship, or give ${one ? 'it' : 'them'} back if cancelled.`;
}

/**
 * What deleting a variant does, as the API does it (a soft delete, src/catalog/admin-service.ts): it
 * leaves the store, its stock record leaves Inventory, and open orders keep what they reserved.
 */
export function variantDeletionEffect(variant: VariantStock): string {
  const stock = variant.inventory;
  const record = stock
    ? ` Its stock record (${count(stock.quantity_on_hand)} on hand) leaves Inventory and can no longer be adjusted.` +
      (stock.quantity_reserved > 0 ? ` ${reservedByOrders(stock.quantity_reserved)}` : '')
    : '';
  return `${variant.sku} can no longer be bought; carts holding it show it as unavailable.${record} Past orders keep their lines. There is no undo.`;
}

/** What deleting a product does, as the API does it: a soft delete of the product and every variant. */
export function productDeletionEffect(variants: VariantStock[]): string {
  const onHand = variants.reduce((n, v) => n + (v.inventory?.quantity_on_hand ?? 0), 0);
  const reserved = variants.reduce((n, v) => n + (v.inventory?.quantity_reserved ?? 0), 0);
  const parts = [
    variants.length === 0
      ? 'It leaves the store at once.'
      : `It leaves the store at once with its ${count(variants.length)} ${variants.length === 1 ? 'variant' : 'variants'}: nobody can buy them, and carts holding them show them as unavailable.`,
  ];
  if (variants.some((v) => v.inventory))
    parts.push(`Their stock records (${count(onHand)} on hand) leave Inventory and can no longer be adjusted.`);
  if (reserved > 0) parts.push(reservedByOrders(reserved));
  parts.push('Past orders keep their lines and totals. There is no undo.');
  return parts.join(' ');
}

/** The API's SKU rule: letters, digits and . _ / -, starting with a letter or digit, at most 80. */
export const SKU = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,79}$/;

/** An amount that may be left empty. */
export const optionalMoney = (message: string) => (value: string) => (value.trim() === '' || MONEY.test(value.trim()) ? null : message);

/** A price of exactly zero (0, 0.0, 0.00). */
export const isZero = (price: string) => MONEY.test(price.trim()) && Number(price) === 0;

/** A compare-at price (the former price, shown struck out in the store): empty, or a price. */
export const compareAtError = optionalMoney('A price like 24.90, or empty');

/** A reorder level: empty (none), or a whole number from 0. */
export const reorderLevelError = (value: number | string) =>
  value === '' || (typeof value === 'number' && Number.isInteger(value) && value >= 0)
    ? null
    : 'A whole number, 0 or more, or empty for none';
