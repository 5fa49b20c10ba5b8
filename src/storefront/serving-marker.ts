import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

let marks = 0;

/**
 * Marks the storefront release at `release` as served by this process (`.serving/<pid>-<n>` in it, one
 * for each service this process runs), so a
 * build made meanwhile does not prune it while this process lives (scripts/storefront-releases.ts).
 * Returns the unmarking, for shutdown. A release on a read-only file system is not marked: nothing
 * builds or prunes there.
 */
export function markServing(release: string): () => void {
  const marker = path.join(release, '.serving', `${process.pid}-${marks++}`);
  try {
    mkdirSync(path.dirname(marker), { recursive: true });
    writeFileSync(marker, '');
  } catch {
    return () => {};
  }
  return () => rmSync(marker, { force: true });
}
