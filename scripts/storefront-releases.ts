/**
 * The storefront's builds as releases: each build is written to a directory of its own under
 * packages/storefront/build-releases, and `build` is a symbolic link moved onto it in one rename
 * once the build is whole. A service already running keeps the release it started with (it
 * resolves the link at start-up), so a build made while it serves (a deploy in place, the test
 * runner rebuilding stale sources) never pulls files from under it; the next start takes the new
 * one. A process serving a release marks it (`.serving/<pid>...` in it: src/storefront/serving-marker.ts
 * for the service, serving.js beside adapter-node's server for `node packages/storefront/build`), and
 * pruning keeps the newest few releases and every one a live process marks.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';

/** Releases kept: the current one and those a still-running process may have started on. */
export const RELEASES_KEPT = 3;

export interface Releases {
  /** The directory holding every release (packages/storefront/build-releases). */
  dir: string;
  /** The link the service and `node packages/storefront/build` read (packages/storefront/build). */
  link: string;
}

let made = 0;

/** A release's name: when its build began (sortable), the building process, a count within it. */
const RELEASE_NAME = /^(\d{15})-(\d+)-\d{4}$/;

/** A new, empty release's directory, named so that releases sort by age and say which process builds them. */
export function newRelease(releases: Releases): string {
  const name = `${String(Date.now()).padStart(15, '0')}-${process.pid}-${String(made++).padStart(4, '0')}`;
  const release = path.join(releases.dir, name);
  mkdirSync(release, { recursive: true });
  return release;
}

/** Points the link at `release` in one rename (a reader sees the old release or the new one), then prunes. */
export function publishRelease(releases: Releases, release: string): void {
  if (!isWhole(release)) throw new Error(`${release} is not a whole storefront build (no mount/manifest.js)`);
  const staged = `${releases.link}.next-${process.pid}`;
  rmSync(staged, { force: true });
  symlinkSync(path.relative(path.dirname(releases.link), release), staged);
  // A build made before releases (a real directory) cannot be renamed over: it goes first.
  if (existsSync(releases.link) && !lstatSync(releases.link).isSymbolicLink()) rmSync(releases.link, { recursive: true, force: true });
  renameSync(staged, releases.link);
  pruneReleases(releases);
}

/**
 * Removes all but the newest RELEASES_KEPT releases, never the one the link points at, one a live
 * process serves, or one another process that still runs made (several instances starting at once with stale
 * sources each build); a build whose process died half-way goes. Processes are known by their IDs on
 * this host: instances in containers of their own that share the directory need a build step of their
 * own (docs: build where you deploy, then start).
 */
export function pruneReleases(releases: Releases): void {
  const current = currentRelease(releases);
  const names = existsSync(releases.dir)
    ? readdirSync(releases.dir)
        .filter((name) => RELEASE_NAME.test(name))
        .sort()
    : [];
  for (const name of names.slice(0, Math.max(0, names.length - RELEASES_KEPT))) {
    const release = path.join(releases.dir, name);
    // Another process that made it still runs: it is being built, or built and about to be published. (This
    // process builds one release at a time, the one it is publishing.)
    const builder = Number(RELEASE_NAME.exec(name)![2]);
    const building = builder !== process.pid && isRunning(builder);
    if (release !== current && !building && !servedNow(release)) rmSync(release, { recursive: true, force: true });
  }
}

/** SvelteKit's adapter writes the manifest last (svelte.config.js): a release without it is being built, or was left half-built. */
const isWhole = (release: string) => existsSync(path.join(release, 'mount', 'manifest.js'));

/** Whether a process that is still running marked `release` as the one it serves (a crashed one's marker does not count). */
export function servedNow(release: string): boolean {
  const markers = path.join(release, '.serving');
  // Named `<pid>` or `<pid>-<n>` (a process that serves it more than once).
  return existsSync(markers) && readdirSync(markers).some((name) => isRunning(Number(name.split('-')[0])));
}

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The release the link points at, or null when there is no link. */
export function currentRelease(releases: Releases): string | null {
  if (!existsSync(releases.link) || !lstatSync(releases.link).isSymbolicLink()) return null;
  return path.resolve(path.dirname(releases.link), readlinkSync(releases.link));
}
