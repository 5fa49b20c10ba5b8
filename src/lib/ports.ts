import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';

/** Where ports are picked from: above the ports services commonly use, below the ephemeral range. */
const FLOOR = 10_000;

/**
 * Ports the Fetch standard's "bad port" list blocks (browsers and Node's fetch refuse to connect), of
 * those from FLOOR up: a server there listens fine and no test's request reaches it.
 */
const FETCH_BLOCKED = new Set([10080]);

/** The lowest port the kernel hands to outgoing connections (Linux; null elsewhere). */
function ephemeralLow(): number | null {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) ? low : null;
  } catch {
    return null;
  }
}

/** Binds `port` on loopback (0: any port), then releases it; rejects when something holds it there or on every interface. */
function probe(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as AddressInfo;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * A port nothing listens on now, for a server started on it next (the embedded PostgreSQL; the
 * services, daemons and receivers tests start), refusing connections meanwhile. It is picked below
 * the kernel's ephemeral range where there is room: a port from listen(0) comes from that range,
 * where any outgoing connection on the machine may take it as its local port before the server
 * binds it, and on a busy machine (a test run opens hundreds a second) a server then failed to
 * start with EADDRINUSE.
 */
export async function freePort(): Promise<number> {
  const low = ephemeralLow();
  if (low !== null && low - FLOOR >= 1_000) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const candidate = FLOOR + randomInt(low - FLOOR);
      if (FETCH_BLOCKED.has(candidate)) continue;
      const port = await probe(candidate).catch(() => null);
      if (port !== null) return port;
    }
  }
  return probe(0);
}
