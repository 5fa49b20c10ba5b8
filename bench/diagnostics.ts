import { sql } from 'kysely';
import type { Db } from '../src/db/database.js';

/**
 * What PostgreSQL did during one scenario (BENCH_DIAG=1): the WAL it wrote, by
 * record type (pg_walinspect), and what its client backends were waiting on,
 * sampled every 50 ms from pg_stat_activity ("CPU" when running, or waiting
 * for a core). It showed where each order's WAL goes and that most backends
 * wait on commit flushes (bench/NOTES.md, seventeenth session). Sampling
 * costs a query every 50 ms from the bench's own pool, so the figures of a
 * run with it are not compared with one without.
 */
export async function startDiagnostics(db: Db): Promise<() => Promise<string[]>> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_walinspect`.execute(db);
  const start = (await sql<{ lsn: string }>`SELECT pg_current_wal_lsn()::text AS lsn`.execute(db)).rows[0]!.lsn;
  const waits = new Map<string, number>();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const { rows } = await sql<{ wait: string; n: number }>`
        SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') AS wait, count(*)::int AS n
        FROM pg_stat_activity WHERE state = 'active' AND backend_type = 'client backend' AND pid <> pg_backend_pid()
        GROUP BY 1`.execute(db);
      for (const { wait, n } of rows) waits.set(wait, (waits.get(wait) ?? 0) + n);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();

  return async () => {
    sampling = false;
    await sampler;
    const { rows: total } = await sql<{ bytes: string }>`
      SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), ${start}::pg_lsn)::bigint::text AS bytes`.execute(db);
    const { rows: records } = await sql<{ kind: string; n: string; bytes: string; fpi: string }>`
      SELECT "resource_manager/record_type" AS kind, count::text AS n, record_size::text AS bytes, fpi_size::text AS fpi
      FROM pg_get_wal_stats(${start}::pg_lsn, pg_current_wal_lsn(), true)
      ORDER BY record_size + fpi_size DESC LIMIT 8`.execute(db);
    const samples = [...waits.values()].reduce((sum, n) => sum + n, 0) || 1;
    const mb = (bytes: string) => (Number(bytes) / 1e6).toFixed(1);
    return [
      `WAL ${mb(total[0]!.bytes)} MB: ${records.map((r) => `${r.kind} ${r.n} records ${mb(r.bytes)} MB${Number(r.fpi) > 0 ? ` + ${mb(r.fpi)} MB page images` : ''}`).join(', ')}`,
      `backends: ${[...waits]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 6)
        .map(([wait, n]) => `${wait} ${Math.round((100 * n) / samples)}%`)
        .join(', ')}`,
    ];
  };
}
