import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { planRuns, type TestRun } from '../../scripts/test/groups.js';
import { failed, runPool, type FileResult } from '../../scripts/test/pool.js';

/** The test runner's sharing of processes (scripts/test/groups.ts) and its results per file (pool.ts). */

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const at = (file: string) => path.join(ROOT, file);

describe('planRuns', () => {
  const seconds: Record<string, number> = {
    'test/long.test.ts': 60,
    'test/a.test.ts': 30,
    'test/b.test.ts': 20,
    'test/c.test.ts': 10,
    'test/d.test.ts': 10,
    'test/unit/e.unit.test.ts': 1,
    'test/races/f.test.ts': 5,
    'packages/client/test/g.test.ts': 5,
  };
  const files = Object.keys(seconds).map(at);
  const expected = (file: string) => seconds[path.relative(ROOT, file)]!;
  const names = (runs: readonly TestRun[]) => runs.map((run) => run.files.map((file) => path.relative(ROOT, file)));

  test('packs short HTTP files under test/ into groups of about the capacity, longest runs first', () => {
    assert.deepEqual(names(planRuns(files, expected, 45)), [
      ['test/long.test.ts'],
      ['test/a.test.ts', 'test/c.test.ts'],
      ['test/b.test.ts', 'test/d.test.ts'],
      ['test/races/f.test.ts'],
      ['packages/client/test/g.test.ts'],
      ['test/unit/e.unit.test.ts'],
    ]);
  });

  test('a capacity of 0 gives every file a process of its own', () => {
    const runs = planRuns(files, expected, 0);
    assert.equal(runs.length, files.length);
    assert.ok(runs.every((run) => run.files.length === 1));
  });
});

describe('a group sharing a process', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'commerce-runner-test-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  /** Runs `body` (a module like bundle.ts writes for a group) for `run`, as the runner does. */
  async function runGroup(run: TestRun, body: string): Promise<FileResult[]> {
    const module = path.join(scratch, `group-${Math.random().toString(36).slice(2)}.mjs`);
    writeFileSync(module, `import { before, describe, test } from 'node:test';\n${body}`);
    return runPool([run], {
      concurrency: 1,
      env: { PATH: process.env.PATH },
      fileTimeoutMs: 30_000,
      verbose: false,
      cpuProfileDir: null,
      moduleOf: () => module,
      print: () => {},
    });
  }
  const summary = (results: readonly FileResult[]) =>
    results.map((r) => ({ file: path.relative(ROOT, r.file), pass: r.pass, fail: r.fail, failed: failed(r) }));

  test('each file passes or fails by its own suite: a failing test, a failing hook, a file that never ran', async () => {
    const run = { files: ['test/a.test.ts', 'test/b.test.ts', 'test/c.test.ts', 'test/d.test.ts'].map(at) };
    const results = await runGroup(
      run,
      [
        "describe('test/a.test.ts', () => { test('passes', () => {}); });",
        "describe('test/b.test.ts', () => { before(() => { throw new Error('hook'); }); test('never runs', () => {}); });",
        "describe('test/c.test.ts', () => { test('fails', () => { throw new Error('no'); }); test('passes', () => {}); });",
      ].join('\n'),
    );
    assert.deepEqual(summary(results), [
      { file: 'test/a.test.ts', pass: 1, fail: 0, failed: false },
      { file: 'test/b.test.ts', pass: 0, fail: 0, failed: true },
      { file: 'test/c.test.ts', pass: 1, fail: 1, failed: true },
      { file: 'test/d.test.ts', pass: 0, fail: 0, failed: true },
    ]);
  });

  test('a process that exits before its suites end fails every file, even with exit code 0', async () => {
    const run = { files: ['test/a.test.ts', 'test/b.test.ts'].map(at) };
    const results = await runGroup(
      run,
      [
        "describe('test/a.test.ts', () => { test('passes', () => {}); });",
        "describe('test/b.test.ts', () => { test('exits', () => process.exit(0)); });",
      ].join('\n'),
    );
    assert.ok(results.every(failed), JSON.stringify(summary(results)));
  });

  test("a failed process's first failed file says why in a few lines: each failing test, its error, where in the test, the page", async () => {
    const run = { files: ['test/a.test.ts', 'test/b.test.ts', 'test/c.test.ts'].map(at) };
    const results = await runGroup(
      run,
      [
        "import assert from 'node:assert/strict';",
        "describe('test/a.test.ts', () => { test('passes', () => {}); });",
        "describe('test/b.test.ts', () => { test('compares', (t) => { t.diagnostic('page at failure: http://shop/checkout\\nPlace order'); assert.equal(1, 2, 'one is two'); }); });",
        "describe('test/c.test.ts', () => { test('throws', () => { throw new Error('The page reported errors:\\nconsole error: boom'); }); });",
      ].join('\n'),
    );
    assert.deepEqual(
      results.map((r) => r.why !== undefined),
      [false, true, false],
      'told once, with the first failed file',
    );
    const why = results[1]!.why!.join('\n');
    for (const said of [
      '✖ compares',
      'one is two',
      '1 !== 2',
      '✖ throws',
      'console error: boom',
      'page at failure: http://shop/checkout',
    ]) {
      assert.ok(why.includes(said), `${said} in:\n${why}`);
    }
    // One frame per failure, in the test's own module; none of node's internals or the assertion's fields.
    assert.equal(why.match(/^\s+at /gm)?.length, 2, why);
    assert.doesNotMatch(why, /node:internal|operator:|generatedMessage/);
    assert.ok(results[1]!.why!.length <= 41);
  });
});
