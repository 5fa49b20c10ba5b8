/**
 * Sums for the guest cart only: the API keeps carts for accounts, so before sign-in the storefront
 * adds up the API's own unit prices itself, exactly, in integer cents. Every other total on the
 * site is the API's (checkout sends back the total it showed, for the API to hold the order to).
 */
const MONEY = /^(\d{1,12})(?:\.(\d{1,2}))?$/;

/** Whether `text` is an amount as the API writes it. */
export const isMoney = (text: string): boolean => MONEY.test(text);

/** An amount as the API writes it (digits, at most two decimals) in cents; anything else is a bug upstream, said loudly. */
export const toCents = (amount: string): number => {
  const match = MONEY.exec(amount);
  if (!match) throw new Error(`Not an amount of money: ${JSON.stringify(amount)}`);
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
};

export const fromCents = (cents: number): string => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
