/** Where to go after signing in: a path on this site only (never `//evil.example` or a full URL). */
export function safeNext(value: string | null | undefined, fallback = '/account'): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\') || value.length > 1000) return fallback;
  return value;
}

/** Why the sign-in page was shown, as the shopper reads it. */
export const SIGN_IN_REASONS: Record<string, string> = {
  expired: 'Your session has ended. Please sign in again; your cart is saved.',
  checkout: 'Sign in or create an account to check out. Your cart comes with you.',
  review: 'Sign in to write a review.',
  account: 'Please sign in to see your account.',
  order: 'Sign in to see your order.',
  reset: 'Your password has been changed. Sign in with the new one.',
};
