/**
 * `BENCH_INSTANCES=1,2,3`: the scenarios run against each count of
 * instances, all on the one database, two ways: behind a round-robin
 * balancer (test/helpers/balancer.ts, run inside the bench process), and
 * with the load driver spreading its connections over the instances itself
 * (as DNS round robin or a client-side balancer would), which takes the
 * balancer's own CPU out of the figure on a machine this small. Reported as
 * ratios to the in-run baseline and to one instance reached the same way.
 */

/**
 * What an instance run measures unless BENCH_ONLY names others: a list, a cheap read, and the two checkouts
 * with their raw-transaction baselines (run once; every instance count's checkout is reported as a ratio to them).
 */
export const SCALE_OUT_SCENARIOS = [
  'products: first page',
  'product detail',
  'checkout baseline: raw transaction, spread',
  'checkout: spread',
  'checkout baseline: raw transaction, hot variant',
  'checkout: hot variant',
];

export interface Setup {
  label: string;
  instances: number;
  via: 'direct' | 'driver' | 'balancer';
}

export function instanceCounts(raw: string | undefined): number[] | null {
  if (!raw) return null;
  const counts = raw.split(',').map((s) => Number(s.trim()));
  if (counts.some((n) => !Number.isInteger(n) || n < 1 || n > 8))
    throw new Error(`BENCH_INSTANCES lists instance counts from 1 to 8, got "${raw}"`);
  return [...new Set(counts)].sort((a, b) => a - b);
}

export function setupsFor(counts: number[] | null): Setup[] {
  if (!counts) return [{ label: '', instances: 1, via: 'direct' }];
  return counts.flatMap((n): Setup[] => [
    n === 1 ? { label: '1 direct', instances: 1, via: 'direct' } : { label: `${n}, spread by the driver`, instances: n, via: 'driver' },
    { label: `${n} behind balancer`, instances: n, via: 'balancer' },
  ]);
}

interface Row {
  name: string;
  setup: string;
  rps: number;
  ratio: number;
  p99: number;
  ordersPerSecond?: number;
  cpu?: { services: number; postgres: number; balancer: number; loadDriver: number; others: number };
}

/** One line per scenario and setup: throughput, ratios, and where the CPU went. */
export function scaleOutTable(rows: Row[], setups: Setup[]): string[] {
  // Spread runs compare with one instance reached directly; balancer runs with one instance behind the balancer.
  const referenceOf = (label: string) => {
    const setup = setups.find((s) => s.label === label);
    return setups.find((s) => s.instances === 1 && (setup?.via === 'balancer' ? s.via === 'balancer' : s.via === 'direct'))?.label;
  };
  const lines = [
    '| scenario | instances | req/s | ratio to baseline | ratio to 1 instance, same path | p99 ms | CPU cores: services / PostgreSQL / balancer / load driver / others |',
    '|---|---|---:|---:|---:|---:|---|',
  ];
  for (const row of rows.filter((r) => r.setup !== '')) {
    const one = rows.find((r) => r.name === row.name && r.setup === referenceOf(row.setup));
    const cpu = row.cpu
      ? `${row.cpu.services} / ${row.cpu.postgres} / ${row.cpu.balancer} / ${row.cpu.loadDriver} / ${row.cpu.others}`
      : '';
    lines.push(
      `| ${row.name} | ${row.setup} | ${row.rps.toFixed(0)} | ${row.ratio.toFixed(2)} | ${one ? (row.rps / one.rps).toFixed(2) : ''} | ${row.p99} | ${cpu} |`,
    );
  }
  return lines;
}
