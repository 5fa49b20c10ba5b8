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
  /** Last run's seconds, summed over the files (for longest-first order). */
  readonly expected: number;
}

const DEFAULT_GROUP_SECONDS = 45;

export function groupSeconds(): number {
  const configured = Number(process.env.TEST_GROUP_SECONDS);
  return Number.isFinite(configured) && configured >= 0 && process.env.TEST_GROUP_SECONDS !== '' ? configured : DEFAULT_GROUP_SECONDS;
}

export function canShareProcess(file: string): boolean {
  return tierOf(file) === 'http' && path.dirname(file) === path.resolve('test');
}

/**
 * First-fit decreasing: each file that may share goes into the first group with room for it, or
 * starts one. Runs come back longest expected first.
 */
export function planRuns(files: readonly string[], expected: (file: string) => number, capacity = groupSeconds()): TestRun[] {
  const byLength = [...files].sort((a, b) => expected(b) - expected(a));
  const alone: TestRun[] = [];
  const groups: { files: string[]; expected: number }[] = [];
  for (const file of byLength) {
    const seconds = expected(file);
    if (capacity <= 0 || !canShareProcess(file) || seconds >= capacity) {
      alone.push({ files: [file], expected: seconds });
      continue;
    }
    const group = groups.find((g) => g.expected + seconds <= capacity);
    if (group) {
      group.files.push(file);
      group.expected += seconds;
    } else groups.push({ files: [file], expected: seconds });
  }
  return [...alone, ...groups].sort((a, b) => b.expected - a.expected);
}
