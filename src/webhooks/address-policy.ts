import { BlockList, isIP } from 'node:net';

/**
 * Where webhooks may not go (SSRF): an endpoint's URL is chosen by an admin
 * account, and a request from inside the store's network to its loopback,
 * private, link-local (cloud metadata: 169.254.169.254, fd00:ec2::254) or
 * other special-purpose addresses could reach what the internet cannot. The
 * addresses a host name resolves to are checked at every attempt, and the
 * request goes to the checked address (./http-sender.ts), so a DNS answer
 * that changes between check and connect (rebinding) changes nothing. An IPv6
 * address that embeds an IPv4 one (::ffff:127.0.0.1, NAT64) is judged by the
 * IPv4 address. (The documentation ranges, 192.0.2.0/24 and the like, are
 * not special here: nothing answers there.) Configuration may allow addresses and ranges
 * (WEBHOOK_ALLOWED_NETWORKS), for receivers inside the network.
 */
const SPECIAL: readonly [string, number, 'ipv4' | 'ipv6', string][] = [
  ['0.0.0.0', 8, 'ipv4', 'a "this network" address'],
  ['10.0.0.0', 8, 'ipv4', 'a private address'],
  ['100.64.0.0', 10, 'ipv4', 'a shared (carrier-grade NAT) address'],
  ['127.0.0.0', 8, 'ipv4', 'a loopback address'],
  ['169.254.0.0', 16, 'ipv4', 'a link-local address (cloud metadata services answer there)'],
  ['172.16.0.0', 12, 'ipv4', 'a private address'],
  ['192.0.0.0', 24, 'ipv4', 'a protocol-assignment address'],
  ['192.88.99.0', 24, 'ipv4', 'a 6to4 relay address'],
  ['192.168.0.0', 16, 'ipv4', 'a private address'],
  ['198.18.0.0', 15, 'ipv4', 'a benchmarking address'],
  ['224.0.0.0', 4, 'ipv4', 'a multicast address'],
  ['240.0.0.0', 4, 'ipv4', 'a reserved or broadcast address'],
  ['::', 128, 'ipv6', 'the unspecified address'],
  ['::1', 128, 'ipv6', 'a loopback address'],
  ['64:ff9b:1::', 48, 'ipv6', 'a local NAT64 address'],
  ['100::', 64, 'ipv6', 'a discard address'],
  ['2001::', 32, 'ipv6', 'a Teredo address'],
  ['2002::', 16, 'ipv6', 'a 6to4 address'],
  ['fc00::', 7, 'ipv6', 'a unique local (private) address (cloud metadata answers at fd00:ec2::254)'],
  ['fe80::', 10, 'ipv6', 'a link-local address'],
  ['fec0::', 10, 'ipv6', 'a site-local (private) address'],
  ['ff00::', 8, 'ipv6', 'a multicast address'],
];

const single = (address: string, prefix: number, family: 'ipv4' | 'ipv6') => {
  const list = new BlockList();
  list.addSubnet(address, prefix, family);
  return list;
};
const RANGES = SPECIAL.map(([address, prefix, family, label]) => ({ list: single(address, prefix, family), family, label }));

/** The eight 16-bit words of an IPv6 address (with or without a trailing dotted IPv4 part). */
function ipv6Words(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, dotted.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => '0');
  return [...left, ...middle, ...right].map((word) => parseInt(word, 16));
}

/**
 * The IPv4 address an IPv6 one carries, if any: IPv4-mapped ::ffff:0:0/96, IPv4-translated
 * ::ffff:0:0:0/96 (SIIT, RFC 7915), IPv4-compatible ::/96 and NAT64 64:ff9b::/96, each of which a
 * translator on the path may turn into the IPv4 address.
 */
export function embeddedIpv4(address: string): string | null {
  const words = ipv6Words(address);
  const zeros = (from: number, to: number) => words.slice(from, to).every((word) => word === 0);
  const mapped = zeros(0, 5) && words[5] === 0xffff;
  const translated = zeros(0, 4) && words[4] === 0xffff && words[5] === 0;
  const compatible = zeros(0, 6) && (words[6] !== 0 || words[7]! > 1);
  const nat64 = words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6);
  if (!mapped && !translated && !compatible && !nat64) return null;
  return [words[6]! >> 8, words[6]! & 0xff, words[7]! >> 8, words[7]! & 0xff].join('.');
}

export interface AddressPolicy {
  /** Why the service refuses to call this IP address, or null when it may. */
  refusal(address: string): string | null;
}

/** `allowed`: addresses and CIDR ranges (`127.0.0.1`, `10.0.0.0/8`, `::1`) that may be called although special. */
export function createAddressPolicy(allowed: readonly string[]): AddressPolicy {
  const allow = new BlockList();
  for (const entry of allowed) {
    const [address = '', bits] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) allow.addAddress(address, family);
    else allow.addSubnet(address, Number(bits), family);
  }
  const judge = (address: string, family: 'ipv4' | 'ipv6'): string | null => {
    if (allow.check(address, family)) return null;
    const range = RANGES.find((r) => r.family === family && r.list.check(address, family));
    return range ? `${address} is ${range.label}` : null;
  };
  return {
    refusal(address) {
      const version = isIP(address);
      if (version === 0) return `${address} is not an IP address`;
      if (version === 4) return judge(address, 'ipv4');
      const inner = embeddedIpv4(address);
      if (inner !== null) {
        const refusal = judge(inner, 'ipv4');
        return refusal === null || allow.check(address, 'ipv6') ? null : `${address} carries ${refusal}`;
      }
      return judge(address, 'ipv6');
    },
  };
}
