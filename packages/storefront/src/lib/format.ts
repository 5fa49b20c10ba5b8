import { formatMoney } from '@commerce/client';

/** Display only: amounts arrive from the API as decimal strings and are never computed with here. */
export function money(amount: string | null | undefined, currency: string): string {
  return amount === null || amount === undefined ? '' : formatMoney(amount, currency, 'en-US');
}

// Made once: building a formatter is far slower than using one (a review list formats a date per review).
const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const momentFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
});

export const date = (iso: string): string => dayFormat.format(new Date(iso));
export const dateTime = (iso: string): string => momentFormat.format(new Date(iso));

/** "M / Black" style summary of a variant's options. */
export function optionsText(options: Record<string, string>): string {
  return Object.values(options).join(' / ');
}

export const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
