import { validationError } from '../lib/errors.js';
import { MIXED_PASSWORD_MESSAGE } from '../lib/text.js';

/** The identity rules every way into an account applies: email normalisation and the password policy. */

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** Character classes: lower, upper, digit, other. A password of only one is refused. */
export function isPasswordTooSimple(password: string): boolean {
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/].filter((re) => re.test(password)).length;
  return classes < 2;
}

/** Refuses a password the policy calls too simple, naming the field it came in (register: `password`; change and reset: `new_password`). */
export function requireStrongPassword(password: string, field: 'password' | 'new_password'): void {
  if (!isPasswordTooSimple(password)) return;
  throw validationError(field === 'password' ? 'The password is too simple' : 'The new password is too simple', [
    { field, message: MIXED_PASSWORD_MESSAGE },
  ]);
}
