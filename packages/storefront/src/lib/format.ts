import { formatMoney } from '@commerce/client';

/** Display only: amounts arrive from the API as decimal strings and are never computed with here. */
export function money(amount: string | null | undefined, currency: string): string {
  return amount === null || amount === undefined ? '' : formatMoney(amount, currency, 'en-US');
}

const dayOptions: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'long', year: 'numeric' };
const momentOptions: Intl.DateTimeFormatOptions = {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
};
// Made once: building a formatter is far slower than using one (a review list formats a date per review).
const dayFormat = new Intl.DateTimeFormat('en-GB', { ...dayOptions, timeZone: 'UTC' });
const momentFormat = new Intl.DateTimeFormat('en-GB', { ...momentOptions, timeZone: 'UTC' });

/** In UTC: all the server knows of the reader (pages are rendered, and cached, for everyone). */
export const date = (iso: string): string => dayFormat.format(new Date(iso));
export const dateTime = (iso: string): string => momentFormat.format(new Date(iso));

let browserZone: { day: Intl.DateTimeFormat; moment: Intl.DateTimeFormat } | undefined;
const inBrowserZone = () =>
  (browserZone ??= { day: new Intl.DateTimeFormat('en-GB', dayOptions), moment: new Intl.DateTimeFormat('en-GB', momentOptions) });

/** In the time zone of the browser running the page (see Moment.svelte). */
export const localDate = (iso: string): string => inBrowserZone().day.format(new Date(iso));
export const localDateTime = (iso: string): string => inBrowserZone().moment.format(new Date(iso));

/** "M / Black" style summary of a variant's options. */
export function optionsText(options: Record<string, string>): string {
  return Object.values(options).join(' / ');
}

export const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
