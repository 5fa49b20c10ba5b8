import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
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

  /** A release holding one file that names it, published. */
  function build(label: string): string {
    const release = newRelease(releases);
    writeFileSync(path.join(release, 'index.js'), label);
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
    writeFileSync(path.join(next, 'index.js'), 'second');
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
