import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import type { Db } from '../src/db/database.js';
import { median } from './stats.js';

/**
 * The webhook side of the checkout benchmark (issue 29): receivers in the
 * bench process that answer 204 at once, and endpoints subscribed to
 * order.placed pointing at them, made over the API as an operator would
 * (the service runs with WEBHOOK_ALLOW_HTTP and 127.0.0.1 allowed). The
 * scenario with them on is compared with the same checkout without them;
 * what the dispatcher delivered during the run, and how long the rest took
 * to drain, is reported beside it.
 */
export interface WebhookBench {
  /** Subscribes `count` endpoints to order.placed; returns their public IDs. */
  subscribe(count: number): Promise<string[]>;
  /** Deletes the endpoints after the scenario once their backlog drained (so the next scenario runs without it). */
  unsubscribe(): Promise<WebhookStats>;
  close(): Promise<void>;
}

export interface WebhookStats {
  endpoints: number;
  /** Deliveries the scenario's orders owed the endpoints. */
  owed: number;
  /** Of those, delivered by the end of the scenario's last round. */
  deliveredByTheEnd: number;
  /** Seconds after the last round until every delivery was sent. */
  drainSeconds: number;
  /** Requests the receivers got (a repeat would make this larger than `owed`). */
  received: number;
  /** Deliveries that took more than one attempt, by the last failed attempt's error. */
  retried: Record<string, number>;
}

export async function webhookBench(options: { db: Db; base: string; admin: { cookie: string; csrf: string } }): Promise<WebhookBench> {
  let received = 0;
  const servers: Server[] = [];
  let endpoints: string[] = [];
  let since = new Date();

  const request = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${options.base}/api/v1/admin/webhooks/endpoints${path}`, {
      method,
      headers: { cookie: options.admin.cookie, 'x-csrf-token': options.admin.csrf, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    if (!response.ok) throw new Error(`${method} endpoints${path}: ${response.status} ${await response.text()}`);
    return response.status === 204 ? null : ((await response.json()) as { data: { public_id: string } });
  };

  // Owed: each order.placed event since the endpoints were made, to each (a delivery row is written only once it is sent).
  const counts = async () => {
    const { rows } = await sql<{ events: number; delivered: number }>`
      SELECT (SELECT count(*)::int FROM events WHERE type = 'order.placed' AND created_at >= ${since}) AS events,
             (SELECT count(*)::int FROM event_deliveries d JOIN event_targets t ON t.id = d.target_id
              WHERE t.public_id = ANY(${endpoints}) AND d.created_at >= ${since} AND d.state = 'SUCCEEDED') AS delivered`.execute(
      options.db,
    );
    return { owed: rows[0]!.events * endpoints.length, delivered: rows[0]!.delivered };
  };

  return {
    async subscribe(count) {
      while (servers.length < count) {
        const server = createServer((req, res) => {
          req.resume();
          req.on('end', () => {
            received++;
            res.writeHead(204).end();
          });
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
        servers.push(server);
      }
      since = new Date();
      received = 0;
      endpoints = [];
      for (const server of servers.slice(0, count)) {
        const { port } = server.address() as AddressInfo;
        const created = await request('POST', '', { url: `http://127.0.0.1:${port}/hooks`, event_types: ['order.placed'] });
        endpoints.push(created!.data.public_id);
      }
      return endpoints;
    },

    async unsubscribe() {
      const atEnd = await counts();
      const started = Date.now();
      let now = atEnd;
      while (now.delivered < now.owed && Date.now() - started < 600_000) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        now = await counts();
      }
      const { rows: retried } = await sql<{ error: string | null; n: number }>`
        SELECT d.last_error AS error, count(*)::int AS n FROM event_deliveries d JOIN event_targets t ON t.id = d.target_id
        WHERE t.public_id = ANY(${endpoints}) AND d.created_at >= ${since} AND d.attempts > 1 GROUP BY d.last_error`.execute(options.db);
      const stats = {
        retried: Object.fromEntries(retried.map((r) => [r.error ?? 'none', r.n])),
        endpoints: endpoints.length,
        // Counted once drained: checkouts still in flight when the last round ended owe deliveries too.
        owed: now.owed,
        deliveredByTheEnd: atEnd.delivered,
        drainSeconds: Math.round((Date.now() - started) / 100) / 10,
        received,
      };
      for (const id of endpoints) await request('DELETE', `/${id}`);
      return stats;
    },

    close: () => Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())))).then(() => {}),
  };
}

/** Runs with three endpoints, each between two without (BENCH_WEBHOOK_PAIRS, default 2). */
export const WEBHOOK_PAIRS = Math.max(1, Number(process.env.BENCH_WEBHOOK_PAIRS ?? 2));
export const withWebhooks = (i: number) => `checkout: spread, 3 webhooks on order.placed${i === 0 ? '' : ` (${i + 1})`}`;
export const withoutWebhooks = (i: number) => (i === 0 ? 'checkout: spread' : `checkout: spread (again${i === 1 ? '' : `, ${i}`})`);

/**
 * Each run with webhooks against the mean of the runs without on both sides,
 * and their median: what the webhooks cost, with the drift between runs
 * (a fifth, either way) averaged out. The delivery figures are the first run's.
 */
export function webhookSummary(stats: WebhookStats[], ordersPerSecond: (scenario: string) => number | undefined) {
  const ratios = stats.flatMap((_, i) => {
    const withThem = ordersPerSecond(withWebhooks(i));
    const sides = [ordersPerSecond(withoutWebhooks(i)), ordersPerSecond(withoutWebhooks(i + 1))].filter((v) => v !== undefined);
    return withThem !== undefined && sides.length > 0 ? [withThem / (sides.reduce((a, b) => a + b, 0) / sides.length)] : [];
  });
  return { ...stats[0]!, ratioToWithout: ratios.length > 0 ? median(ratios) : null, ratios };
}
