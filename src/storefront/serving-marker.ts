import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

let marks = 0;

/**
 * Marks the storefront release at `release` as served by this process (`.serving/<pid>-<n>` in it, one
 * for each service this process runs), so a
 * build made meanwhile does not prune it while this process lives (scripts/storefront-releases.ts).
 * Returns the unmarking, for shutdown, or the reason it could not mark (a read-only release, or one
 * this process's user may not write: nothing protects it from a build in place then).
 */
export function markServing(release: string): { unmark: () => void } | { failed: Error } {
  const marker = path.join(release, '.serving', `${process.pid}-${marks++}`);
  try {
    mkdirSync(path.dirname(marker), { recursive: true });
    writeFileSync(marker, '');
  } catch (error) {
    return { failed: error as Error };
  }
  return { unmark: () => rmSync(marker, { force: true }) };
}
