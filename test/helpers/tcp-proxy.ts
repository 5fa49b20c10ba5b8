import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL whose connections can be cut: `cut(ms)`
 * destroys every open connection and refuses new ones for `ms`, as a network
 * partition or a failover between the service and its database would.
 */
export interface TcpProxy {
  port: number;
  /** How many times `cut` ran. */
  readonly cuts: number;
  cut(ms: number): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: URL): Promise<TcpProxy> {
  const open = new Set<net.Socket>();
  let refuseUntil = 0;
  let cuts = 0;
  const server = net.createServer((client) => {
    if (Date.now() < refuseUntil) return void client.destroy();
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get cuts() {
      return cuts;
    },
    cut(ms) {
      cuts++;
      refuseUntil = Date.now() + ms;
      for (const socket of open) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
