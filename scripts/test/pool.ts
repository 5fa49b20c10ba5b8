/**
 * Runs test runs (a file alone, or a group of files sharing a process: groups.ts) as separate Node
 * processes, a fixed number at a time, longest first (by the last run's timings), so the long ones
 * start early instead of trailing alone at the end. Each process's output is held and printed
 * whole when it ends, so parallel runs never interleave; a file that passes prints one line unless
 * TEST_VERBOSE is set. Results are per file, a group's taken from its files' suites.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { failureDigest } from './digest.js';
import type { TestRun } from './groups.js';

const COUNTER = fileURLToPath(new URL('./count-reporter.mjs', import.meta.url));
const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** Process groups of the files started (each file and whatever it started: services, PostgreSQL). */
const processGroups = new Set<number>();
let stopped = false;

/** Whether any process of the group is still there (signal 0 only checks). */
function alive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroups(signal: NodeJS.Signals): void {
  for (const group of processGroups) {
    try {
      process.kill(-group, signal);
    } catch {
      // Already gone.
    }
  }
}

/**
 * Ends every file running now, with what it started, and starts no more (the run was interrupted).
 * SIGTERM first, so services stop the PostgreSQL they embedded (it runs in a group of its own);
 * SIGKILL for whatever is left after `graceMs`.
 */
export async function stopPool(graceMs = 5_000): Promise<void> {
  stopped = true;
  signalGroups('SIGTERM');
  const deadline = Date.now() + graceMs;
  while ([...processGroups].some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  signalGroups('SIGKILL');
}

export interface FileCounts {
  tests: number;
  pass: number;
  fail: number;
  skipped: number;
  todo: number;
  cancelled: number;
}

export interface FileResult extends FileCounts {
  file: string;
  seconds: number;
  exitCode: number | null;
  timedOut: boolean;
  /** Why it failed, in a few lines (digest.ts): on the first failed file of a process, for the run's summary. */
  why?: string[];
}

export interface PoolOptions {
  concurrency: number;
  env: NodeJS.ProcessEnv;
  /** A file still running after this long (a group: this long per file) is killed and counted as failed. */
  fileTimeoutMs: number;
  verbose: boolean;
  /** Where each file's process writes a V8 CPU profile (TEST_CPU_PROF), or none. */
  cpuProfileDir: string | null;
  /** The compiled module a run's process runs (bundle.ts). */
  moduleOf: (run: TestRun) => string;
  /** Written as each file ends (stdout by default). */
  print?: (text: string) => void;
}

const EMPTY: FileCounts = { tests: 0, pass: 0, fail: 0, skipped: 0, todo: 0, cancelled: 0 };

/** What count-reporter.mjs writes: the process's counts, and each top-level suite's (a group's files). */
interface ReportedCounts extends FileCounts {
  files: Record<string, FileCounts & { seconds: number; suiteFailed: boolean }>;
}

function runProcess(run: TestRun, scratch: string, options: PoolOptions): Promise<{ results: FileResult[]; output: string }> {
  const started = Date.now();
  const countsFile = path.join(scratch, `${path.basename(run.files[0]!)}-${started}-${Math.random().toString(36).slice(2)}.json`);
  const args = [
    '--enable-source-maps',
    ...(options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : []),
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${COUNTER}`,
    `--test-reporter-destination=${countsFile}`,
    options.moduleOf(run),
  ];
  return new Promise((resolve) => {
    // Its own process group, so a timeout ends whatever the file started (services, browsers) too.
    const child = spawn(process.execPath, args, { env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    if (child.pid !== undefined) processGroups.add(child.pid);
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, options.fileTimeoutMs * run.files.length);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      let counts: ReportedCounts = { ...EMPTY, files: {} };
      try {
        counts = { ...counts, ...(JSON.parse(readFileSync(countsFile, 'utf8')) as Partial<ReportedCounts>) };
      } catch {
        // The process died before its reporter wrote anything: its files count as failed by its exit code.
      }
      const seconds = (Date.now() - started) / 1000;
      const output = Buffer.concat(chunks).toString('utf8');
      if (run.files.length === 1) {
        const { files: _suites, ...own } = counts;
        resolve({ results: [{ file: run.files[0]!, seconds, exitCode, timedOut, ...own }], output });
        return;
      }
      resolve({ results: groupResults(run, counts, { exitCode, timedOut }), output });
    });
  });
}

/**
 * A group's results, one per file from its suite. A file whose suite never ended (the process died
 * or was killed first) failed with the process's exit code; so does every file when the process
 * failed with no file to blame (an error outside every suite).
 */
function groupResults(run: TestRun, counts: ReportedCounts, end: { exitCode: number | null; timedOut: boolean }): FileResult[] {
  const results = run.files.map((file): FileResult => {
    const suite = counts.files[path.relative(ROOT, file)];
    if (!suite) return { file, ...EMPTY, seconds: 0, exitCode: end.exitCode === 0 ? 1 : end.exitCode, timedOut: end.timedOut };
    const { seconds, suiteFailed, ...own } = suite;
    return { file, ...own, seconds, exitCode: suiteFailed || own.fail > 0 ? 1 : 0, timedOut: false };
  });
  const blamed = results.some(failed);
  return end.exitCode !== 0 && !blamed ? results.map((r) => ({ ...r, exitCode: end.exitCode })) : results;
}

export const failed = (r: FileResult): boolean => r.exitCode !== 0 || r.fail > 0 || r.timedOut;

export async function runPool(runs: readonly TestRun[], options: PoolOptions): Promise<FileResult[]> {
  const print = options.print ?? ((text: string) => process.stdout.write(text));
  const scratch = mkdtempSync(path.join(tmpdir(), 'commerce-test-counts-'));
  const queue = [...runs];
  const results: FileResult[] = [];
  const relative = (file: string) => path.relative(process.cwd(), file);
  async function worker(): Promise<void> {
    for (let run = queue.shift(); run !== undefined && !stopped; run = queue.shift()) {
      const { results: ended, output } = await runProcess(run, scratch, options);
      // Killed by stopPool: neither a result nor a timing for the next run's order.
      if (stopped) return;
      // A group's output is one process's: its failures are told once, with its first failed file.
      const firstFailed = ended.find(failed);
      if (firstFailed) firstFailed.why = failureDigest(output);
      results.push(...ended);
      const lines = ended.map((result) => {
        const mark = failed(result) ? '✖' : '✔';
        const why = result.timedOut
          ? ` (killed after ${(options.fileTimeoutMs * run.files.length) / 1000} s)`
          : result.tests === 0 && result.exitCode !== 0
            ? ` (the process exited with ${result.exitCode} before it ended)`
            : '';
        return `${mark} ${relative(result.file)}  ${result.pass}/${result.tests} passed  ${result.seconds.toFixed(1)} s${why}\n`;
      });
      const shared = run.files.length > 1 ? `  (these ${run.files.length} files shared one process)\n` : '';
      print(ended.some(failed) || options.verbose ? `\n${lines.join('')}${shared}${output.trimEnd()}\n\n` : lines.join(''));
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, runs.length)) }, worker));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return results;
}
