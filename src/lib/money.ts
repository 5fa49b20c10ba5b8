/**
 * Exact money arithmetic in integer minor units (cents). Amounts enter and
 * leave as two-place decimal strings; nothing passes through floating point
 * except the integer cents themselves, which stay far below 2^53.
 */
export type Cents = number;

export function toCents(amount: string): Cents {
  const match = /^(-)?(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!match) throw new Error(`not a money amount: ${amount}`);
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  return match[1] ? -cents : cents;
}

export function fromCents(cents: Cents): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * `cents * numerator / denominator`, rounded half up (away from zero), in
 * integers: percentages and tax rates are given as decimal strings.
 */
export function percentOf(cents: Cents, percent: string): Cents {
  const [whole = '0', fraction = ''] = percent.split('.');
  const scale = 10 ** fraction.length;
  const numerator = BigInt(cents) * BigInt(Number(whole) * scale + Number(fraction || '0'));
  const denominator = BigInt(100 * scale);
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  return Number(remainder * 2n >= denominator ? quotient + 1n : quotient);
}
