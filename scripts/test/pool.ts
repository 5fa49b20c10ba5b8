/**
 * Runs test files as separate Node processes, a fixed number at a time, longest first (by the last
 * run's timings), so the long files start early instead of trailing alone at the end. Each file's
 * output is held and printed whole when it ends, so parallel files never interleave; a file that
 * passes prints one line unless TEST_VERBOSE is set.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const COUNTER = fileURLToPath(new URL('./count-reporter.mjs', import.meta.url));

/** Process groups of the files started (each file and whatever it started: services, PostgreSQL). */
const groups = new Set<number>();
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
  for (const group of groups) {
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
  while ([...groups].some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
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
}

export interface PoolOptions {
  concurrency: number;
  env: NodeJS.ProcessEnv;
  /** A file still running after this long is killed and counted as failed. */
  fileTimeoutMs: number;
  verbose: boolean;
  /** Where each file's process writes a V8 CPU profile (TEST_CPU_PROF), or none. */
  cpuProfileDir: string | null;
  /** The compiled module a test file runs as (bundle.ts). */
  moduleOf: (file: string) => string;
  /** Written as each file ends (stdout by default). */
  print?: (text: string) => void;
}

const EMPTY: FileCounts = { tests: 0, pass: 0, fail: 0, skipped: 0, todo: 0, cancelled: 0 };

function runFile(file: string, scratch: string, options: PoolOptions): Promise<{ result: FileResult; output: string }> {
  const started = Date.now();
  const countsFile = path.join(scratch, `${path.basename(file)}-${started}-${Math.random().toString(36).slice(2)}.json`);
  const args = [
    '--enable-source-maps',
    ...(options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : []),
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${COUNTER}`,
    `--test-reporter-destination=${countsFile}`,
    options.moduleOf(file),
  ];
  return new Promise((resolve) => {
    // Its own process group, so a timeout ends whatever the file started (services, browsers) too.
    const child = spawn(process.execPath, args, { env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    if (child.pid !== undefined) groups.add(child.pid);
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
    }, options.fileTimeoutMs);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      let counts = EMPTY;
      try {
        counts = { ...EMPTY, ...(JSON.parse(readFileSync(countsFile, 'utf8')) as Partial<FileCounts>) };
      } catch {
        // The file died before its reporter wrote anything: it counts as failed by its exit code.
      }
      const seconds = (Date.now() - started) / 1000;
      resolve({ result: { file, seconds, exitCode, timedOut, ...counts }, output: Buffer.concat(chunks).toString('utf8') });
    });
  });
}

export const failed = (r: FileResult): boolean => r.exitCode !== 0 || r.fail > 0 || r.timedOut;

export async function runPool(files: readonly string[], options: PoolOptions): Promise<FileResult[]> {
  const print = options.print ?? ((text: string) => process.stdout.write(text));
  const scratch = mkdtempSync(path.join(tmpdir(), 'commerce-test-counts-'));
  const queue = [...files];
  const results: FileResult[] = [];
  const relative = (file: string) => path.relative(process.cwd(), file);
  async function worker(): Promise<void> {
    for (let file = queue.shift(); file !== undefined && !stopped; file = queue.shift()) {
      const { result, output } = await runFile(file, scratch, options);
      // Killed by stopPool: neither a result nor a timing for the next run's order.
      if (stopped) return;
      results.push(result);
      const bad = failed(result);
      const mark = bad ? '✖' : '✔';
      const why = result.timedOut ? ` (killed after ${options.fileTimeoutMs / 1000} s)` : '';
      const line = `${mark} ${relative(file)}  ${result.pass}/${result.tests} passed  ${result.seconds.toFixed(1)} s${why}\n`;
      print(bad || options.verbose ? `\n${line}${output.trimEnd()}\n\n` : line);
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, files.length)) }, worker));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return results;
}
