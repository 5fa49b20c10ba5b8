/**
 * Which test files share a process. A process of its own costs an HTTP test file about two
 * CPU-seconds before its first test (Node's start, loading the service's modules, building the
 * first app on cold code); four small files took 14 CPU-seconds as four processes and 8 as one.
 *
 * Only the `http` files directly under test/ share: each one starts its own app on a database of
 * its own (test/helpers/use-app.ts), sets no process-wide state, and has no top-level await. In a
 * shared process each file runs inside a top-level suite named after it (bundle.ts), so its
 * `before` and `after` hooks run around its own tests only and its app is closed before the next
 * file starts. Everything else (unit, browser, faults, races, fuzz, the client package's files)
 * keeps a process of its own.
 *
 * Files are packed, longest expected first, into groups of about TEST_GROUP_SECONDS (45) of last
 * run's time; `TEST_GROUP_SECONDS=0` runs every file alone (to rule sharing out when a file fails
 * only beside others).
 */
import path from 'node:path';
import { tierOf } from './tiers.js';

/** One process: a file alone, or several files that run one after the other. */
export interface TestRun {
  readonly files: readonly string[];
}

function groupSeconds(): number {
  const configured = process.env.TEST_GROUP_SECONDS ? Number(process.env.TEST_GROUP_SECONDS) : NaN;
  return Number.isFinite(configured) && configured >= 0 ? configured : 45;
}

function canShareProcess(file: string): boolean {
  return tierOf(file) === 'http' && path.dirname(file) === path.resolve('test');
}

/**
 * First-fit decreasing: each file that may share goes into the first group with room for it, or
 * starts one. Runs come back longest expected first.
 */
export function planRuns(files: readonly string[], expected: (file: string) => number, capacity = groupSeconds()): TestRun[] {
  const byLength = [...files].sort((a, b) => expected(b) - expected(a));
  const runs: { files: string[]; seconds: number }[] = [];
  const groups: typeof runs = [];
  for (const file of byLength) {
    const seconds = expected(file);
    const shares = capacity > 0 && canShareProcess(file) && seconds < capacity;
    const group = shares ? groups.find((g) => g.seconds + seconds <= capacity) : undefined;
    if (group) {
      group.files.push(file);
      group.seconds += seconds;
      continue;
    }
    const run = { files: [file], seconds };
    runs.push(run);
    if (shares) groups.push(run);
  }
  return runs.sort((a, b) => b.seconds - a.seconds).map(({ files }) => ({ files }));
}
