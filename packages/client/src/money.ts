const formats = new Map<string, Intl.NumberFormat>();

/**
 * An amount as the API sends it (a decimal string with at most two decimals: money is never a float on
 * the wire) written for people in `currency`, by `locale`'s custom (the runtime's own when left out):
 * `formatMoney('48', 'USD', 'en-US')` is `$48.00`. Two decimals whatever the currency prints by custom
 * (yen none, dinar three): the API keeps two, and a rounded figure would hide a cent. Display only,
 * never arithmetic: a double holds ten digits and two decimals exactly enough to print to the cent.
 */
export function formatMoney(amount: string, currency: string, locale?: string): string {
  const key = `${locale ?? ''}|${currency}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 });
    formats.set(key, format);
  }
  return format.format(Number(amount));
}
