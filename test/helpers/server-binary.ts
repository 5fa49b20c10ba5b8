import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The real servers some fault tests drive (PgBouncer, HAProxy, Varnish), as Debian
 * installs them. A missing one fails the test with the command that installs
 * it: these tests never pass by skipping. `.ci/install-servers.sh` installs
 * them on CI.
 */
export function serverBinary(name: 'pgbouncer' | 'haproxy' | 'varnishd' | 'varnishadm', packageName: string): string {
  const directories = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  for (const directory of directories.filter(Boolean)) {
    const candidate = path.join(directory, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  throw new Error(
    `${name} is not installed, and this test runs the real one. Install it: \`sudo apt-get install -y ${packageName}\` ` +
      `(Debian/Ubuntu; \`bash .ci/install-servers.sh\` as root installs everything the fault tests use), or \`brew install ${packageName}\` on macOS.`,
  );
}

/** Under root, the account a server that refuses root runs as (PgBouncer does): PostgreSQL's, which Debian's packages and the test server create. */
export function unprivilegedAccount(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const passwd = readFileSync('/etc/passwd', 'utf8').split('\n');
  for (const name of ['postgres', 'nobody']) {
    const fields = passwd.find((line) => line.startsWith(`${name}:`))?.split(':');
    if (fields) return { uid: Number(fields[2]), gid: Number(fields[3]) };
  }
  throw new Error('running as root, and neither a postgres nor a nobody account exists to run the server as');
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** A server in the foreground, its output kept (the tail) for failure messages; killed when the test process exits. */
export function spawnServer(
  binary: string,
  args: string[],
  options: { env?: Record<string, string>; account?: { uid: number; gid: number } | null } = {},
): { child: ChildProcess; output(): string; stop(): Promise<void> } {
  const child = spawn(binary, args, {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.account ? { uid: options.account.uid, gid: options.account.gid } : {}),
  });
  live.add(child);
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-200_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      live.delete(child);
      resolve();
    }),
  );
  return {
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(force);
    },
  };
}
