import assert from 'node:assert/strict';
import { renderEmail, type RenderedEmail } from '../../src/email/templates.js';
import { toCents } from '../../src/lib/money.js';
import type { QueuedEmail } from '../../src/outbox/emails.js';
import type { RunningApp } from './app.js';

/**
 * The order email of `kind` queued for an order, rendered as the email worker renders it: from the payload read
 * back from the outbox, so what the checks see has been through the JSON column. The app's worker must be idle.
 */
export async function queuedOrderEmail(
  t: RunningApp,
  kind: 'order_placed' | 'order_cancelled',
  orderPublicId: string,
): Promise<RenderedEmail> {
  const rows = await t.db.selectFrom('outbox').select('payload').where('kind', '=', kind).execute();
  const mine = rows.filter((row) => (row.payload as { order_public_id?: string }).order_public_id === orderPublicId);
  assert.equal(mine.length, 1, `one ${kind} email for ${orderPublicId}`);
  // Typed by kind as the worker takes it: the service wrote the payload for this kind.
  return renderEmail({ kind, payload: mine[0]!.payload } as unknown as QueuedEmail, t.config.publicBaseUrl);
}

/**
 * Asserts that an order email's text adds up as a customer would check it: its lines come to its subtotal, and
 * the subtotal less the discount plus shipping and tax is its total. Read from the text, summed in integer cents.
 */
export function assertReconciles(text: string, currency: string): void {
  // Amounts are printed as the shop shows them ($1,234.50): the currency's sign, then digits grouped by commas.
  const sign = new Intl.NumberFormat('en-US', { style: 'currency', currency })
    .formatToParts(0)
    .find((part) => part.type === 'currency')!.value;
  // A code rather than a sign ("KWD 5.00") is followed by a no-break space.
  const amount = `${sign.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s?([\\d,]+\\.\\d{2})`;
  const find = (pattern: string) => new RegExp(`^${pattern}$`, 'm').exec(text)?.[1]?.replaceAll(',', '');
  const lines = [...text.matchAll(new RegExp(`^- .*: ${amount}$`, 'gm'))].map((m) => toCents(m[1]!.replaceAll(',', '')));
  const subtotal = find(`Subtotal: ${amount}`);
  const total = find(`Total: ${amount}`);
  assert.ok(lines.length > 0 && subtotal !== undefined && total !== undefined, `no lines, subtotal or total in:\n${text}`);
  assert.ok(new RegExp(`^Shipping: (${amount}|Free)$`, 'm').test(text), `no shipping in:\n${text}`);
  const cents = (value: string | undefined) => (value === undefined ? 0 : toCents(value));
  const discount = cents(find(`Discount(?: \\(.*\\))?: -${amount}`));
  const shipping = cents(find(`Shipping: ${amount}`));
  const tax = cents(find(`Tax: ${amount}`));
  assert.equal(
    lines.reduce((sum, line) => sum + line, 0),
    toCents(subtotal!),
    `the lines do not add up to the subtotal:\n${text}`,
  );
  assert.equal(toCents(subtotal!) - discount + shipping + tax, toCents(total!), `the amounts do not add up to the total:\n${text}`);
}
