import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';

/** Whether a process with this PID exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface EmbeddedDataDir {
  /** The DATA_DIR to give the services (read inside tests). */
  readonly path: string;
  /** The PID postmaster.pid names, or null when there is none. */
  postmasterPid(): number | null;
  /** The server's port, from postmaster.pid. */
  port(): string;
}

/**
 * For a test file whose services run their own embedded PostgreSQL: a data
 * directory made before its tests and removed after them, once `stopServices`
 * has run and any server a failed test left behind is killed.
 */
export function embeddedDataDir(prefix: string, stopServices: () => Promise<void>): EmbeddedDataDir {
  let dir = '';
  const pidFile = () => path.join(dir, 'postgres', 'postmaster.pid');
  const lines = () => (existsSync(pidFile()) ? readFileSync(pidFile(), 'utf8').split('\n') : null);
  const state: EmbeddedDataDir = {
    get path() {
      return dir;
    },
    postmasterPid: () => {
      const pid = lines()?.[0];
      return pid === undefined ? null : Number(pid);
    },
    port: () => lines()![3]!.trim(),
  };
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), prefix));
    chmodSync(dir, 0o755); // as root, PostgreSQL runs as its own system user and must reach it
  });
  after(async () => {
    await stopServices();
    const pid = state.postmasterPid();
    if (pid !== null && alive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  return state;
}
