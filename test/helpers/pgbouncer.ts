import { chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../src/lib/ports.js';
import { sleep } from './mail.js';
import { serverBinary, spawnServer, unprivilegedAccount } from './server-binary.js';

/**
 * The real PgBouncer (Debian's, 1.18 on Debian 12) in front of the test
 * server, configured by the committed deploy/pgbouncer/pgbouncer.ini: the
 * test changes only where things are (the databases, the listening port, the
 * files), so what it proves holds for the documented configuration.
 * Every database of the test server is reachable through it by its name.
 */
export interface PgBouncer {
  readonly port: number;
  /** The URL of `database` through PgBouncer (a URL of the test server with its host and port swapped). */
  url(database: string): string;
  output(): string;
  stop(): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const PGBOUNCER_INI = path.join(ROOT, 'deploy', 'pgbouncer', 'pgbouncer.ini');

/** The keys of [pgbouncer] the test sets itself; the committed file must have each (so it stays the complete one it claims to be). */
const LOCAL_KEYS = ['listen_addr', 'listen_port', 'unix_socket_dir', 'auth_file', 'logfile', 'pidfile'] as const;

export function renderPgBouncerIni(
  committed: string,
  server: { host: string; port: number },
  local: Record<(typeof LOCAL_KEYS)[number], string>,
): string {
  let section = '';
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const line of committed.split('\n')) {
    const header = /^\s*\[(\w+)\]\s*$/.exec(line);
    if (header) {
      section = header[1]!;
      lines.push(line);
      if (section === 'databases') lines.push(`* = host=${server.host} port=${server.port}`);
      continue;
    }
    const setting = /^\s*(\w+)\s*=/.exec(line);
    if (!setting) lines.push(line);
    else if (section === 'databases')
      continue; // the committed entries name a production host
    else if (section === 'pgbouncer' && setting[1]! in local) {
      seen.add(setting[1]!);
      lines.push(`${setting[1]} = ${local[setting[1] as keyof typeof local]}`);
    } else lines.push(line);
  }
  const missing = LOCAL_KEYS.filter((key) => !seen.has(key));
  if (missing.length > 0) throw new Error(`deploy/pgbouncer/pgbouncer.ini no longer sets ${missing.join(', ')}`);
  return lines.join('\n');
}

export async function startPgBouncer(): Promise<PgBouncer> {
  const binary = serverBinary('pgbouncer', 'pgbouncer');
  const adminUrl = process.env.TEST_PG_ADMIN_URL;
  if (!adminUrl) throw new Error('Run tests with `npm test` (it prepares the database server)');
  const server = new URL(adminUrl);
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'commerce-pgbouncer-'));
  const account = unprivilegedAccount();
  const userlist = path.join(dir, 'userlist.txt');
  writeFileSync(userlist, `"${decodeURIComponent(server.username)}" "${decodeURIComponent(server.password)}"\n`, { mode: 0o600 });
  const ini = path.join(dir, 'pgbouncer.ini');
  writeFileSync(
    ini,
    renderPgBouncerIni(
      readFileSync(PGBOUNCER_INI, 'utf8'),
      { host: server.hostname, port: Number(server.port) },
      {
        listen_addr: '127.0.0.1',
        listen_port: String(port),
        unix_socket_dir: '',
        auth_file: userlist,
        logfile: '',
        pidfile: path.join(dir, 'pgbouncer.pid'),
      },
    ),
  );
  // PgBouncer refuses to run as root: under root it runs as PostgreSQL's account, which must own its files.
  if (account) for (const file of [dir, userlist, ini]) chownSync(file, account.uid, account.gid);
  const bouncer = spawnServer(binary, [ini], { account });

  const url = (database: string) => {
    const through = new URL(adminUrl);
    through.port = String(port);
    through.pathname = `/${database}`;
    return through.toString();
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (bouncer.child.exitCode !== null) throw new Error(`pgbouncer exited with ${bouncer.child.exitCode}:\n${bouncer.output()}`);
    const client = new pg.Client({ connectionString: url(server.pathname.slice(1) || 'postgres') });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      break;
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > deadline) {
        await bouncer.stop();
        throw new Error(`pgbouncer did not answer within 10 s (${(error as Error).message}):\n${bouncer.output()}`, { cause: error });
      }
      await sleep(100);
    }
  }
  return {
    port,
    url,
    output: bouncer.output,
    async stop() {
      await bouncer.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
