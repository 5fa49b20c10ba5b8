import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** An opaque, URL-safe secret of 256 bits. */
export const newSecretToken = (): string => randomBytes(32).toString('base64url');

/** What the database stores instead of a secret token. */
export const hashToken = (token: string): Buffer => createHash('sha256').update(token).digest();

export const hmacToken = (key: string, purpose: string): string => createHmac('sha256', key).update(purpose).digest('base64url');

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
