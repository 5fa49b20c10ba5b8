import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashing with scrypt (memory-hard, built into Node, no native addon).
 * The stored form carries its own parameters so the cost can rise later
 * without breaking existing hashes: `scrypt$<log2N>$<r>$<p>$<salt>$<hash>`.
 */
const KEY_LENGTH = 32;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;

function derive(password: string, salt: Buffer, log2n: number, r: number, p: number): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** log2n, r, p, maxmem: 256 * 2 ** log2n * r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function hashPassword(password: string, log2n: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, log2n, BLOCK_SIZE, PARALLELISM);
  return ['scrypt', log2n, BLOCK_SIZE, PARALLELISM, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, log2n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !log2n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), Number(log2n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A hash of a password nobody knows, used when the email is unknown so that a
 * login attempt costs the same time whether or not the account exists.
 */
export function createDummyHash(log2n: number): Promise<string> {
  return hashPassword(randomBytes(16).toString('hex'), log2n);
}
