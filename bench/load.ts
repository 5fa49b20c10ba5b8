/**
 * The load driver, run as its own process so it does not share a CPU budget
 * decision with the service. Reads one scenario (JSON in BENCH_SCENARIO),
 * runs a warm-up and the measured rounds with autocannon, prints JSON.
 */
import { readFileSync } from 'node:fs';
import autocannon, { type Result } from 'autocannon';
import { rawCheckout } from './raw-checkout.js';
import type { Shopper as Session } from './shoppers.js';
import type { Round } from './types.js';

/** `spread`: the instances to share the connections between, as a client-side balancer would (instance runs). */
type Scenario =
  /** `threads`: autocannon's worker threads, where one driver thread would be the limit (a cache's hit path). */
  | { kind: 'get'; url: string; spread?: string[]; path: string; headers?: Record<string, string>; threads?: number }
  | { kind: 'orders'; url: string; spread?: string[]; shoppersFile: string }
  | { kind: 'checkout'; url: string; sessions: Session[]; hot: string | null; variants: string[] }
  | { kind: 'raw-checkout'; databaseUrl: string; shoppersFile: string };

interface Settings {
  connections: number;
  warmupSeconds: number;
  roundSeconds: number;
  rounds: number;
}

const scenario = JSON.parse(process.env.BENCH_SCENARIO!) as Scenario;
const settings = JSON.parse(process.env.BENCH_SETTINGS!) as Settings;
const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)]!;

async function getRound(seconds: number): Promise<Round> {
  if (scenario.kind !== 'get') throw new Error('not a get scenario');
  const { path, headers, threads } = scenario;
  return spreadRound((url, connections) =>
    autocannon({
      url: url + path,
      connections,
      duration: seconds,
      headers: headers ?? {},
      ...(threads && threads > 1 ? { workers: threads } : {}),
    }).then(roundOf),
  );
}

/**
 * One autocannon per instance when the scenario is spread, each with its
 * share of the connections, run at once: throughput and errors add up, and
 * the latencies reported are the worst instance's.
 */
async function spreadRound(run: (url: string, connections: number) => Promise<Round>): Promise<Round> {
  if (scenario.kind === 'raw-checkout') throw new Error('the raw checkout has no URL');
  const urls = scenario.kind !== 'checkout' && scenario.spread ? scenario.spread : [scenario.url];
  const rounds = await Promise.all(
    urls.map((url, i) => run(url, Math.floor(settings.connections / urls.length) + (i < settings.connections % urls.length ? 1 : 0))),
  );
  const sum = (pick: (r: Round) => number | undefined) => rounds.reduce((total, r) => total + (pick(r) ?? 0), 0);
  return {
    rps: sum((r) => r.rps),
    p50: Math.max(...rounds.map((r) => r.p50)),
    p99: Math.max(...rounds.map((r) => r.p99)),
    errors: sum((r) => r.errors),
    non2xx: sum((r) => r.non2xx),
    ...(rounds[0]?.orders !== undefined
      ? { orders: sum((r) => r.orders), rejected: sum((r) => r.rejected), ordersPerSecond: sum((r) => r.ordersPerSecond) }
      : {}),
  };
}

/** What every round reports from autocannon's result. */
const roundOf = (result: Result): Round => ({
  rps: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  errors: result.errors + result.timeouts,
  non2xx: result.non2xx,
});

/** Counts each order: 201 placed, anything else rejected. */
function orderCounter() {
  const counts = { orders: 0, rejected: 0 };
  const onResponse = (status: number) => (status === 201 ? counts.orders++ : counts.rejected++);
  return { counts, onResponse };
}

const headersOf = (s: Session) => ({ cookie: s.cookie, 'x-csrf-token': s.csrf, 'content-type': 'application/json' });

/**
 * `POST /orders` alone: every request is another customer whose cart of two
 * lines was prepared before the run (bench/shoppers.ts), so each request
 * checks out a fresh cart. Shoppers are used once, in order, across the
 * warm-up and the rounds; running out shows as rejected requests.
 */
const shoppers =
  scenario.kind === 'orders' || scenario.kind === 'raw-checkout'
    ? (JSON.parse(readFileSync(scenario.shoppersFile, 'utf8')) as Session[])
    : [];
let nextShopper = 0;

function ordersRound(seconds: number): Promise<Round> {
  if (scenario.kind !== 'orders') throw new Error('not an orders scenario');
  return spreadRound((url, connections) => ordersOn(url, connections, seconds));
}

async function ordersOn(url: string, connections: number, seconds: number): Promise<Round> {
  const { counts, onResponse } = orderCounter();
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/api/v1/orders',
        setupRequest: (req: any) => {
          const s = shoppers[nextShopper++ % shoppers.length]!;
          return { ...req, headers: headersOf(s), body: JSON.stringify({ address_public_id: s.addressId, payment_method: 'mock' }) };
        },
        onResponse,
      },
    ],
  } as any);
  return { ...roundOf(result), ...counts, ordersPerSecond: counts.orders / (result.duration || seconds) };
}

/**
 * The whole flow, for comparison: each connection is one customer: two POST /cart/items (a fresh cart of two
 * lines), then POST /orders, with its own cookie and CSRF token.
 */
async function checkoutRound(seconds: number): Promise<Round> {
  if (scenario.kind !== 'checkout') throw new Error('not a checkout scenario');
  const { sessions, hot, variants } = scenario;
  const { counts, onResponse } = orderCounter();
  let next = 0;
  const line = (variant: string) => JSON.stringify({ variant_public_id: variant, quantity: 1 });

  const result = await autocannon({
    url: scenario.url,
    connections: settings.connections,
    duration: seconds,
    initialContext: {},
    // Give every connection its own session: the iterator rebuilds requests from this context.
    setupClient: (client: any) => {
      const session = sessions[next++ % sessions.length]!;
      client.requestIterator.initialContext = { session };
      client.requestIterator.resetContext();
      client.requestIterator.rebuildRequest();
    },
    requests: [
      {
        method: 'POST',
        path: '/api/v1/cart/items',
        setupRequest: (req: any, context: any) => {
          const s: Session = context.session ?? sessions[0];
          return { ...req, headers: headersOf(s), body: line(hot ?? pick(variants)) };
        },
      },
      {
        method: 'POST',
        path: '/api/v1/cart/items',
        setupRequest: (req: any, context: any) => {
          const s: Session = context.session ?? sessions[0];
          return { ...req, headers: headersOf(s), body: line(pick(variants)) };
        },
      },
      {
        method: 'POST',
        path: '/api/v1/orders',
        setupRequest: (req: any, context: any) => {
          const s: Session = context.session ?? sessions[0];
          return { ...req, headers: headersOf(s), body: JSON.stringify({ address_public_id: s.addressId, payment_method: 'mock' }) };
        },
        onResponse,
      },
    ],
  } as any);
  return { ...roundOf(result), ...counts, ordersPerSecond: counts.orders / (result.duration || seconds) };
}

/** The checkout baseline (bench/raw-checkout.ts): the transaction alone, through node-postgres, same callers, fresh carts. */
const raw = scenario.kind === 'raw-checkout' ? await rawCheckout(scenario.databaseUrl, shoppers, settings.connections) : null;
const rawRound = (seconds: number) => raw!.round(seconds);

const round = { get: getRound, orders: ordersRound, checkout: checkoutRound, 'raw-checkout': rawRound }[scenario.kind];
if (settings.warmupSeconds > 0) await round(settings.warmupSeconds);
const rounds: Round[] = [];
for (let i = 0; i < settings.rounds; i++) rounds.push(await round(settings.roundSeconds));
const usedCarts = raw ? raw.used() : nextShopper;
if (shoppers.length > 0 && usedCarts > shoppers.length)
  process.stderr.write(`[bench] ran out of prepared carts: ${usedCarts} requests for ${shoppers.length}\n`);
await raw?.close();
process.stdout.write(JSON.stringify(rounds));
