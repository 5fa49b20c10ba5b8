/** Formatting for people: money in the store's currency, dates in the browser's locale's words, in UTC. */
import { formatMoney } from '@commerce/client';

/** The API sends money as exact decimal strings; display only, never arithmetic. In the browser's locale. */
export function money(amount: string | null | undefined, currency = 'USD'): string {
  return amount === null || amount === undefined ? '—' : formatMoney(amount, currency);
}

// One rule for every date and time, shown or typed: UTC, and said ("10:12 PM UTC"). Day filters, the
// dashboard and the P&L count UTC days; date inputs say "(UTC)" and are read in UTC.
const dateTime = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
});
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

export function when(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : '—';
}

export function day(iso: string | null | undefined): string {
  // A bare YYYY-MM-DD is a calendar day: formatted at noon UTC, and in UTC.
  if (!iso) return '—';
  return dateOnly.format(new Date(iso.length === 10 ? `${iso}T12:00:00Z` : iso));
}

export function count(n: number): string {
  return new Intl.NumberFormat().format(n);
}

export function titleCase(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1).toLowerCase().replaceAll('_', ' ');
}

/** Today in the UTC calendar (YYYY-MM-DD), as the day filters and the dashboard count days. */
export function utcDay(date = new Date()): string {
  return date.toISOString().slice(0, 10);
}
