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
const inUtc = {
  day: new Intl.DateTimeFormat('en-GB', { ...dayOptions, timeZone: 'UTC' }),
  moment: new Intl.DateTimeFormat('en-GB', { ...momentOptions, timeZone: 'UTC' }),
};
let browserZone: typeof inUtc | undefined;
const inBrowserZone = () =>
  (browserZone ??= { day: new Intl.DateTimeFormat('en-GB', dayOptions), moment: new Intl.DateTimeFormat('en-GB', momentOptions) });

/**
 * A moment from the API as a shopper reads it: its day, or with `time` its hour and zone too. In UTC,
 * all the server knows of the reader (pages are rendered, and cached, for everyone); with `local`, in
 * the time zone of the browser running the page (see Moment.svelte).
 */
export function moment(iso: string, { time = false, local = false } = {}): string {
  const formats = local ? inBrowserZone() : inUtc;
  return (time ? formats.moment : formats.day).format(new Date(iso));
}

/** "M / Black" style summary of a variant's options. */
export function optionsText(options: Record<string, string>): string {
  return Object.values(options).join(' / ');
}

export const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
