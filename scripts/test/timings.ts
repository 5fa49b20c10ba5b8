/**
 * How long each test file took last time, kept in node_modules/.cache so that the next run starts
 * the longest files first. Without a record (a fresh clone), files that usually take longest by
 * their tier go first.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FileResult } from './pool.js';
import { tierOf, type Tier } from './tiers.js';

const STORE = path.resolve('node_modules/.cache/commerce-tests/timings.json');

// Typical seconds per file by tier on a two-core machine, for files without a record.
const TYPICAL: Readonly<Record<Tier, number>> = { races: 60, browser: 60, faults: 45, fuzz: 45, http: 8, unit: 1 };

type Timings = Record<string, number>;

function load(): Timings {
  try {
    return JSON.parse(readFileSync(STORE, 'utf8')) as Timings;
  } catch {
    return {};
  }
}

const key = (file: string) => path.relative(process.cwd(), file);

/** Longest expected first; ties keep path order. */
export function orderByLastRun(files: readonly string[]): string[] {
  const known = load();
  const expected = (file: string) => known[key(file)] ?? TYPICAL[tierOf(file)];
  return [...files].sort((a, b) => expected(b) - expected(a));
}

export function saveTimings(results: readonly FileResult[]): void {
  const timings = load();
  for (const result of results) timings[key(result.file)] = Math.round(result.seconds * 10) / 10;
  try {
    mkdirSync(path.dirname(STORE), { recursive: true });
    writeFileSync(STORE, `${JSON.stringify(timings, null, 1)}\n`);
  } catch {
    // A read-only checkout runs its tests all the same, only without the ordering next time.
  }
}
