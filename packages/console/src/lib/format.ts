/** Formatting for people: money in the store's currency, dates in the browser's locale. */

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** The API sends money as exact decimal strings; display only, never arithmetic. */
export function money(amount: string | null | undefined, currency = 'USD'): string {
  if (amount === null || amount === undefined) return '—';
  let format = moneyFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat(undefined, { style: 'currency', currency });
    moneyFormats.set(currency, format);
  }
  return format.format(Number(amount));
}

// Times name their zone ("10:12 PM UTC", "11:12 AM GMT+13"): day filters and the dashboard count UTC days.
const dateTime = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

export function when(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : '—';
}

export function day(iso: string | null | undefined): string {
  // A bare YYYY-MM-DD is a calendar day: format it at noon UTC so no time zone moves it.
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

/** Today in the browser's calendar (YYYY-MM-DD), for a date a person picks, such as the day an expense was spent. */
export function localDay(date = new Date()): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}
