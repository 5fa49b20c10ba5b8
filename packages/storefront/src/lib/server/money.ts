/**
 * Sums for the guest cart only: the API keeps carts for accounts, so before sign-in the storefront
 * adds up the API's own unit prices itself, exactly, in integer cents. Every other total on the
 * site is the API's.
 */
export const toCents = (amount: string): number => {
  const [whole = '0', fraction = ''] = amount.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
};

export const fromCents = (cents: number): string => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
