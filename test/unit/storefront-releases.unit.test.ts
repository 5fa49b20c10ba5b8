import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { currentRelease, newRelease, publishRelease, RELEASES_KEPT, servedNow, type Releases } from '../../scripts/storefront-releases.js';

/** The storefront's build as releases behind a link (scripts/storefront-releases.ts), on a scratch directory. */
describe('storefront releases', () => {
  let root = '';
  let releases: Releases;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'storefront-releases-'));
    releases = { dir: path.join(root, 'build-releases'), link: path.join(root, 'build') };
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** Writes what a whole build leaves: a file that names it, and the manifest written last. */
  function finish(release: string, label: string): void {
    writeFileSync(path.join(release, 'index.js'), label);
    mkdirSync(path.join(release, 'mount'));
    writeFileSync(path.join(release, 'mount', 'manifest.js'), '');
  }
  /** A release built and published. */
  function build(label: string): string {
    const release = newRelease(releases);
    finish(release, label);
    publishRelease(releases, release);
    return release;
  }
  const served = () => readFileSync(path.join(releases.link, 'index.js'), 'utf8');

  test('a build made before releases (a real directory) is replaced by the link', () => {
    mkdirSync(releases.link);
    writeFileSync(path.join(releases.link, 'index.js'), 'old layout');
    const release = build('first');
    assert.equal(served(), 'first');
    assert.equal(currentRelease(releases), release);
  });

  test('while a build is written the link still shows the whole previous release; a process that resolved it keeps it', () => {
    const first = build('first');
    const pinned = realpathSync(releases.link);
    const next = newRelease(releases);
    writeFileSync(path.join(next, 'half.js'), 'half-written');
    assert.equal(served(), 'first');
    assert.equal(existsSync(path.join(releases.link, 'half.js')), false);
    assert.throws(() => publishRelease(releases, next), /not a whole storefront build/);
    finish(next, 'second');
    publishRelease(releases, next);
    assert.equal(served(), 'second');
    assert.equal(pinned, first);
    assert.equal(readFileSync(path.join(pinned, 'index.js'), 'utf8'), 'first', 'the earlier release is still whole');
  });

  test('a release a running process serves is kept however old; a mark left by a process that ended is not', () => {
    const served = build('served');
    const crashed = build('crashed');
    mkdirSync(path.join(served, '.serving'));
    writeFileSync(path.join(served, '.serving', `${process.pid}-0`), '');
    // A process that has ended (killed, say) left its mark behind.
    const ended = spawnSync(process.execPath, ['-e', '']).pid;
    mkdirSync(path.join(crashed, '.serving'));
    writeFileSync(path.join(crashed, '.serving', String(ended)), '');
    assert.equal(servedNow(served), true);
    assert.equal(servedNow(crashed), false);
    for (let i = 0; i < RELEASES_KEPT; i++) build(`later ${i}`);
    assert.equal(existsSync(served), true, 'kept while served');
    assert.equal(existsSync(crashed), false, 'pruned');
    rmSync(path.join(served, '.serving'), { recursive: true });
    build('one more');
    assert.equal(existsSync(served), false, 'pruned once no longer served');
  });

  test('a release another running process is building is kept; one left half-built by a process that ended goes', async () => {
    // Another process builds one (it still runs), and a process that has ended left one half-built.
    const builder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    try {
      const name = path.basename(newRelease(releases));
      rmSync(path.join(releases.dir, name), { recursive: true });
      const building = path.join(releases.dir, name.replace(`-${process.pid}-`, `-${builder.pid}-`));
      const ended = spawnSync(process.execPath, ['-e', '']).pid;
      const abandoned = path.join(releases.dir, name.replace(`-${process.pid}-`, `-${ended}-`));
      mkdirSync(building);
      mkdirSync(abandoned);
      writeFileSync(path.join(releases.dir, 'notes.txt'), 'not a release');
      for (let i = 0; i < RELEASES_KEPT + 1; i++) build(`later ${i}`);
      assert.equal(existsSync(building), true, 'the build under way elsewhere is kept');
      assert.equal(existsSync(abandoned), false, 'the abandoned one goes');
      assert.equal(existsSync(path.join(releases.dir, 'notes.txt')), true, 'what is not a release is left alone');
    } finally {
      builder.kill();
    }
  });

  test(`the newest ${RELEASES_KEPT} releases are kept, the current one always`, () => {
    const made = Array.from({ length: RELEASES_KEPT + 2 }, (_, i) => build(`release ${i}`));
    assert.deepEqual(
      readdirSync(releases.dir).map((name) => path.join(releases.dir, name)),
      made.slice(-RELEASES_KEPT),
    );
    assert.equal(served(), `release ${RELEASES_KEPT + 1}`);
    // A build begun but not finished is newer than the current one: pruning never takes the current.
    for (let i = 0; i < RELEASES_KEPT; i++) newRelease(releases);
    publishRelease(releases, made.at(-1)!);
    assert.equal(served(), `release ${RELEASES_KEPT + 1}`);
  });
});
