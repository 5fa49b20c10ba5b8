import { lookup, Resolver } from 'node:dns/promises';
import pLimit from 'p-limit';
import type { Resolve } from './http-sender.js';

/**
 * How webhook host names become addresses without taking threads from the
 * API. Node's `dns.lookup` (getaddrinfo) runs on libuv's pool of four
 * threads, which password hashing, compression and file reads share: a
 * receiver whose DNS does not answer would hold a thread per attempt for the
 * system resolver's whole timeout (seconds each, ten attempts per endpoint at
 * once), and sign-ins would wait behind it. So a name is asked of DNS
 * directly (c-ares, on the event loop, within `timeoutMs`), and a DNS that
 * does not answer in time fails the attempt (retried later). Only a name DNS
 * could not give addresses for at once (one from /etc/hosts, a short name
 * completed by a search domain, a host without a reachable name server) goes
 * to getaddrinfo, one such lookup at a time.
 */
export function createHostResolver({ timeoutMs, servers = [] }: { timeoutMs: number; servers?: readonly string[] }): Resolve {
  // c-ares waits `timeout` for the first try and longer for the second: together about timeoutMs.
  const dns = new Resolver({ timeout: Math.max(50, Math.ceil(timeoutMs / 4)), tries: 2 });
  if (servers.length > 0) dns.setServers([...servers]);
  const oneAtATime = pLimit(1);

  /** The addresses of one family, [] when DNS has none; a DNS that does not answer in time throws. */
  const ask = async (host: string, family: 4 | 6) => {
    try {
      const found = family === 4 ? await dns.resolve4(host) : await dns.resolve6(host);
      return found.map((address) => ({ address, family }));
    } catch (error) {
      if ((error as { code?: string }).code === 'ETIMEOUT') {
        throw Object.assign(new Error(`DNS did not answer for ${host} within ${timeoutMs} ms`), { code: 'ETIMEOUT' });
      }
      return [];
    }
  };

  // IPv4 first (what most receivers publish), IPv6 when there is none: the attempt connects to the first address.
  return async (host) => {
    const v4 = await ask(host, 4);
    if (v4.length > 0) return v4;
    const v6 = await ask(host, 6);
    if (v6.length > 0) return v6;
    return oneAtATime(() => lookup(host, { all: true, verbatim: true }));
  };
}
