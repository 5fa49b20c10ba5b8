/**
 * How long each test file took last time, kept in node_modules/.cache so that the next run starts
 * the longest files first and packs the short ones into shared processes (groups.ts). A fresh
 * clone (CI's every run) has no record: it takes each file's time from typical-seconds.json, a
 * whole suite's record committed beside this file, and a file not there (a new one) lasts its
 * tier's typical time. Only the order and the packing depend on it, so it may age; to refresh it,
 * run `npm test` and copy the record over it (rounded to whole seconds).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FileResult } from './pool.js';
import { tierOf, type Tier } from './tiers.js';

const STORE = path.resolve('node_modules/.cache/commerce-tests/timings.json');
const SEED = path.join(import.meta.dirname, 'typical-seconds.json');

// Typical seconds per file by tier on a two-core machine, for files without a record.
const TYPICAL: Readonly<Record<Tier, number>> = { races: 60, browser: 60, faults: 45, fuzz: 45, http: 8, unit: 1 };

type Timings = Record<string, number>;

function load(file = STORE): Timings {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Timings;
  } catch {
    return {};
  }
}

const key = (file: string) => path.relative(process.cwd(), file);

/** Seconds a file is expected to take: its last run's, the committed record's, or its tier's typical time. */
export function expectedSeconds(): (file: string) => number {
  const known = load();
  const typical = load(SEED);
  return (file) => known[key(file)] ?? typical[key(file)] ?? TYPICAL[tierOf(file)];
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
