import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): a secret
 * is `whsec_` and base64 of 32 random bytes; each message is signed as
 * `v1,` + base64(HMAC-SHA256(secret bytes, "<webhook-id>.<webhook-timestamp>.<body>")),
 * and `webhook-signature` lists one such signature per live secret, separated
 * by spaces, so a receiver holding either secret during a rotation verifies
 * it with any Standard Webhooks library.
 */
const PREFIX = 'whsec_';

export const newSigningSecret = (): string => PREFIX + randomBytes(32).toString('base64');

const keyOf = (secret: string) => Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');

export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  return 'v1,' + createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
}

/** The three headers of a signed message. */
export function signatureHeaders(secrets: readonly string[], id: string, timestampSeconds: number, body: string) {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((secret) => sign(secret, id, timestampSeconds, body)).join(' '),
  };
}
