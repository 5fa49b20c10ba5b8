/**
 * `BENCH_INSTANCES=1,2,3`: the scenarios run against one instance directly
 * (what the balancer itself costs), then against each count of instances
 * behind a round-robin balancer (test/helpers/balancer.ts, run inside the
 * bench process), all on the one database. Reported as ratios to the
 * in-run baseline and to one instance behind the same balancer.
 */

/** What an instance run measures unless BENCH_ONLY names others: a list, a cheap read, and the two checkouts. */
export const SCALE_OUT_SCENARIOS = ['products: first page', 'product detail', 'checkout: spread', 'checkout: hot variant'];

export interface Setup {
  label: string;
  instances: number;
  balanced: boolean;
}

export function instanceCounts(raw: string | undefined): number[] | null {
  if (!raw) return null;
  const counts = raw.split(',').map((s) => Number(s.trim()));
  if (counts.some((n) => !Number.isInteger(n) || n < 1 || n > 8)) throw new Error(`BENCH_INSTANCES lists instance counts from 1 to 8, got "${raw}"`);
  return [...new Set(counts)].sort((a, b) => a - b);
}

export function setupsFor(counts: number[] | null): Setup[] {
  if (!counts) return [{ label: '', instances: 1, balanced: false }];
  return [{ label: '1 direct', instances: 1, balanced: false }, ...counts.map((n) => ({ label: `${n} behind balancer`, instances: n, balanced: true }))];
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
  const reference = setups.find((s) => s.balanced && s.instances === 1)?.label;
  const lines = [
    '| scenario | instances | req/s | ratio to baseline | ratio to 1 behind balancer | p99 ms | CPU cores: services / PostgreSQL / balancer / load driver / others |',
    '|---|---|---:|---:|---:|---:|---|',
  ];
  for (const row of rows.filter((r) => r.setup !== '')) {
    const one = rows.find((r) => r.name === row.name && r.setup === reference);
    const cpu = row.cpu ? `${row.cpu.services} / ${row.cpu.postgres} / ${row.cpu.balancer} / ${row.cpu.loadDriver} / ${row.cpu.others}` : '';
    lines.push(`| ${row.name} | ${row.setup} | ${row.rps.toFixed(0)} | ${row.ratio.toFixed(2)} | ${one ? (row.rps / one.rps).toFixed(2) : ''} | ${row.p99} | ${cpu} |`);
  }
  return lines;
}
