import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A round-robin HTTP load balancer, as small as one can be: each request
 * goes to the next target in turn, bodies streamed both ways, upstream
 * connections kept alive. It stands in for HAProxy or a cloud balancer in
 * the multi-instance test and in `BENCH_INSTANCES` bench runs.
 */
export interface Balancer {
  url: string;
  /** Requests sent to each target so far, in the order of `targets`. */
  served: number[];
  /** Replaces the targets (the balancer's address can be handed out before the services exist). */
  use(targets: readonly string[]): void;
  close(): Promise<void>;
}

export async function startBalancer(targets: readonly string[] = []): Promise<Balancer> {
  let upstreams = targets.map((target) => new URL(target));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });
  const served = upstreams.map(() => 0);
  let next = 0;

  const server = http.createServer((request, response) => {
    if (upstreams.length === 0) return void response.writeHead(503).end();
    const index = next++ % upstreams.length;
    served[index]!++;
    const target = upstreams[index]!;
    const forwardedFor = [request.headers['x-forwarded-for'], request.socket.remoteAddress].filter(Boolean).join(', ');
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, 'x-forwarded-for': forwardedFor },
        agent,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => {
      if (response.headersSent) response.destroy();
      else response.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway');
    });
    request.pipe(upstream);
  });
  server.keepAliveTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    use(targets) {
      upstreams = targets.map((target) => new URL(target));
      served.splice(0, served.length, ...upstreams.map(() => 0));
      next = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
