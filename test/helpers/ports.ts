import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** Where ports are picked from: above the ports services commonly use, below the ephemeral range. */
const FLOOR = 10_000;

/** The lowest port the kernel hands to outgoing connections (Linux; null elsewhere). */
function ephemeralLow(): number | null {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) ? low : null;
  } catch {
    return null;
  }
}

/** Binds `port` on every interface (0: any port), then releases it; rejects when something holds it. */
function probe(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '0.0.0.0', () => {
      const { port: bound } = server.address() as AddressInfo;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * A port nothing listens on now, for a server a test starts on it later (a service's PORT, a
 * daemon, a receiver that comes back), and meanwhile refusing connections. It is picked below the
 * kernel's ephemeral range: a port from listen(0) comes from that range, where any outgoing
 * connection on the machine (hundreds a second during a test run) may take it as its local port
 * before the test's server binds it, and a service then failed to start with EADDRINUSE.
 */
export async function freePort(): Promise<number> {
  const low = ephemeralLow();
  if (low !== null && low - FLOOR >= 1_000) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const port = await probe(FLOOR + randomInt(low - FLOOR)).catch(() => null);
      if (port !== null) return port;
    }
  }
  return probe(0);
}
