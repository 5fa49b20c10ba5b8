import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../src/lib/ports.js';
import { sleep } from './mail.js';
import { serviceCommand } from './service-command.js';
import { adminQuery, testServerUrl } from './service.js';

/**
 * Real service processes (src/main.ts: test/helpers/service-command.ts), as an operator
 * runs them: each its own PORT and DATA_DIR, all on one DATABASE_URL. Used
 * by the multi-instance test; the fault tests' spawner may absorb it later.
 */
export interface ServiceProcess {
  url: string;
  pid: number;
  /** What the process wrote to stdout and stderr (the tail), for failure messages. */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code (null when killed). */
  stop(graceMs?: number): Promise<number | null>;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const live = new Set<ChildProcess>();
// A test process that dies must not leave services behind on the shared database server.
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** An empty database of its own on the test server (not cloned from the template: the services migrate it). */
export async function emptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (!process.env.TEST_PG_ADMIN_URL) throw new Error('Run tests with `npm test` (it prepares the database server)');
  const name = `test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  return {
    url: testServerUrl(name),
    async drop() {
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** Starts one service process and waits until /health/ready answers 200. */
export async function startService(env: Record<string, string>, readyTimeoutMs = 60_000): Promise<ServiceProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'commerce-instance-'));
  const { NODE_TEST_CONTEXT: _test, ...inherited } = process.env;
  const child = spawn(process.execPath, serviceCommand('main.ts'), {
    cwd: ROOT,
    env: {
      ...inherited,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      PASSWORD_HASH_COST: '10',
      LOG_LEVEL: 'warn',
      // On first use, as in-process test apps do (a start costs a CPU-second less); `npm start` tests compile at start.
      SCHEMA_COMPILE: 'first-use',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-20_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      live.delete(child);
      rmSync(dataDir, { recursive: true, force: true });
      resolve(code);
    }),
  );

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service on port ${port} exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${url}/health/ready`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`service on port ${port} not ready within ${readyTimeoutMs} ms:\n${output}`);
    }
    await sleep(100);
  }

  return {
    url,
    pid: child.pid!,
    output: () => output,
    async stop(graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(force);
      return code;
    },
  };
}

/** `count` services on one database, started at the same moment (so they race to migrate it). */
export async function startInstances(count: number, env: Record<string, string>): Promise<ServiceProcess[]> {
  const started = await Promise.allSettled(Array.from({ length: count }, () => startService(env)));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.stop() : null)));
    throw (failed as PromiseRejectedResult).reason;
  }
  return started.map((s) => (s as PromiseFulfilledResult<ServiceProcess>).value);
}
