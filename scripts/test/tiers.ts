/**
 * Which tier a test file belongs to, from where it lives and how it is named, so adding a test
 * never means editing a list:
 *
 * - `unit`: `*.unit.test.ts` anywhere: pure logic, no database, no build, no browser.
 * - `browser`: under a `console/` or `storefront/` test folder (a real Chromium).
 * - `faults`: under `test/faults/` (real processes killed, signalled, cut off).
 * - `fuzz`: `test/fuzz*.test.ts` (the seeded property-based walk of every route).
 * - `races`: under `test/races/` (many racing requests and lock-order checks).
 * - `http`: everything else: HTTP against PostgreSQL.
 *
 * `npm run test:unit` runs the first; `npm run test:fast` adds `http`; `npm test` runs them all.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export type Tier = 'unit' | 'http' | 'browser' | 'faults' | 'fuzz' | 'races';
export type Selection = 'unit' | 'fast' | 'all';

export const TIERS_OF: Readonly<Record<Selection, readonly Tier[]>> = {
  unit: ['unit'],
  fast: ['unit', 'http'],
  all: ['unit', 'http', 'browser', 'faults', 'fuzz', 'races'],
};

export function tierOf(file: string): Tier {
  const parts = file.split(/[\\/]/);
  const name = parts.at(-1) ?? '';
  if (name.endsWith('.unit.test.ts')) return 'unit';
  if (parts.includes('console') || parts.includes('storefront')) return 'browser';
  if (parts.includes('faults')) return 'faults';
  if (parts.includes('races')) return 'races';
  if (name.startsWith('fuzz')) return 'fuzz';
  return 'http';
}

/** Every `*.test.ts` under `dir` (node_modules and build output left out), sorted. */
export function testFilesUnder(dir: string): string[] {
  const out: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...testFilesUnder(full));
    else if (entry.endsWith('.test.ts')) out.push(full);
  }
  return out.sort();
}
