import { randomBytes } from 'node:crypto';

/** Every public prefix of the service (contract section 1). */
export type IdPrefix =
  'usr' | 'ses' | 'adr' | 'cat' | 'prd' | 'var' | 'ord' | 'rev' | 'cpn' | 'exp' | 'aud' | 'inv' | 'whe' | 'evt' | 'dlv' | 'cch';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 20;

/** A prefix plus 20 random base62 characters (about 119 bits). */
export function newPublicId(prefix: IdPrefix): string {
  // 256 is not a multiple of 62: reject bytes >= 248 so every character is equally likely.
  let body = '';
  while (body.length < BODY_LENGTH) {
    for (const byte of randomBytes(32)) {
      if (byte < 248 && body.length < BODY_LENGTH) body += ALPHABET[byte % 62];
    }
  }
  return `${prefix}_${body}`;
}

const SHAPE = /^[a-z]{3}_[0-9A-Za-z]{16,40}$/;

/** True when `value` looks like an ID of this prefix; anything else is simply "not found". */
export function isPublicId(prefix: IdPrefix, value: string): boolean {
  return value.startsWith(`${prefix}_`) && SHAPE.test(value);
}
