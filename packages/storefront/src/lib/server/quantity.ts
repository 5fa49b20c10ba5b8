import { MAX_QUANTITY } from './guest-cart';

/**
 * What a quantity box is for: adding (1 or more) or changing a cart line (0 removes it). Each says
 * in its refusal exactly what it takes.
 */
const USES = {
  add: { least: 1, refusal: `Enter a whole number from 1 to ${MAX_QUANTITY}.` },
  change: { least: 0, refusal: `Enter a whole number from 1 to ${MAX_QUANTITY}, or 0 to remove it.` },
} as const;

/**
 * A quantity as typed in a form: digits only (Number() would also take '' as 0, and 1e2, 0x10 or 1.0),
 * within what the use takes; else the sentence to show at the box.
 */
export function typedQuantity(typed: FormDataEntryValue | null, use: keyof typeof USES): { quantity: number } | { refusal: string } {
  const { least, refusal } = USES[use];
  const text = typeof typed === 'string' ? typed.trim() : '';
  const quantity = /^\d+$/.test(text) ? Number(text) : NaN;
  return quantity >= least && quantity <= MAX_QUANTITY ? { quantity } : { refusal };
}
