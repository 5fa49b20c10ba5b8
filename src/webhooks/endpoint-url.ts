import { isIP } from 'node:net';
import { validationError } from '../lib/errors.js';
import type { AddressPolicy } from './address-policy.js';
import type { Resolve } from './http-sender.js';

/**
 * An endpoint URL as it is stored: https (or http where configuration allows
 * it, for local receivers), no credentials, no fragment, and not naming an
 * address webhooks may not call. A host name is resolved now too, briefly:
 * one that resolves to such an address is refused at once; one that does not
 * resolve yet is accepted (its addresses are checked again at every attempt).
 */
const RESOLVE_WITHIN_MS = 2000;

const refuse = (message: string) => validationError(`url ${message}`, [{ field: 'url', message }]);

export async function checkEndpointUrl(
  raw: string,
  rules: { allowHttp: boolean; policy: AddressPolicy; resolve: Resolve },
): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('must be an absolute URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && rules.allowHttp)) {
    throw refuse(rules.allowHttp ? 'must use https or http' : 'must use https');
  }
  if (url.username || url.password) throw refuse('must not carry a user name or password (put a token in the path or query instead)');
  if (url.hash) throw refuse('must not have a fragment');
  // Port 0 is no port anything listens on: every attempt would fail.
  if (url.port === '0') throw refuse('must not name port 0');
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const addresses = isIP(host) ? [host] : await resolveBriefly(host, rules.resolve);
  for (const address of addresses) {
    const refusal = rules.policy.refusal(address);
    if (refusal) throw refuse(`names ${isIP(host) ? '' : `a host that resolves to `}${refusal}, which webhooks may not call`);
  }
  return url.href;
}

async function resolveBriefly(host: string, resolve: Resolve): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<[]>((done) => (timer = setTimeout(() => done([]), RESOLVE_WITHIN_MS)));
  try {
    const found = await Promise.race([resolve(host).catch(() => [] as { address: string }[]), late]);
    return found.map((entry) => entry.address);
  } finally {
    clearTimeout(timer);
  }
}
