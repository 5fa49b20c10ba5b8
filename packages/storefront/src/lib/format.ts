/** Display only: amounts arrive from the API as decimal strings and are never computed with here. */
const formats = new Map<string, Intl.NumberFormat>();

export function money(amount: string | null | undefined, currency: string): string {
  if (amount === null || amount === undefined) return '';
  let format = formats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    formats.set(currency, format);
  }
  return format.format(Number(amount));
}

export function date(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

export function dateTime(iso: string): string {
  return new Date(iso).toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  });
}

/** "M / Black" style summary of a variant's options. */
export function optionsText(options: Record<string, string>): string {
  return Object.values(options).join(' / ');
}

export const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
