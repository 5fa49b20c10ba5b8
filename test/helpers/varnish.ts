import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../src/lib/ports.js';
import { sleep } from './mail.js';
import { serverBinary, spawnServer } from './server-binary.js';

/**
 * The real Varnish (Debian's `varnish` package) running the committed
 * deploy/varnish/commerce.vcl unchanged: the test writes only the top-level
 * file an operator writes (deploy/varnish/default.vcl is the one-backend
 * example): the backends, a round-robin director when there are several,
 * and the include. Its own working directory (-n) under a temporary one, an
 * ephemeral port, no jail. `stop` and `start` again keep the port and the
 * directory (a cache that went down and came back, empty).
 */
export interface Varnish {
  readonly url: string;
  readonly purgeUrl: string;
  /** The varnishd manager's process ID (its cache worker is a child of it). */
  pid(): number;
  /** varnishadm with the instance's working directory. */
  admin(...args: string[]): Promise<string>;
  /** The ban list's expressions. */
  bans(): Promise<string[]>;
  output(): string;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const COMMERCE_VCL = path.join(ROOT, 'deploy', 'varnish', 'commerce.vcl');
const run = promisify(execFile);

/** `port`: where to listen (a free one when omitted), so the services can be told the purge URL before Varnish starts. */
export async function startVarnish(backends: readonly string[], token: string, port?: number): Promise<Varnish> {
  const varnishd = serverBinary('varnishd', 'varnish');
  const varnishadm = serverBinary('varnishadm', 'varnish');
  port ??= await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'commerce-varnish-'));
  const workdir = path.join(dir, 'work');
  mkdirSync(workdir);
  const vcl = path.join(dir, 'top.vcl');
  writeFileSync(vcl, topVcl(backends));
  const args = ['-F', '-j', 'none', '-f', vcl, '-a', `127.0.0.1:${port}`, '-n', workdir, '-s', 'malloc,64m', '-T', '127.0.0.1:0'];
  let server: ReturnType<typeof spawnServer> | null = null;
  const admin = async (...command: string[]) => (await run(varnishadm, ['-n', workdir, ...command])).stdout;

  const start = async () => {
    server = spawnServer(varnishd, args, { env: { COMMERCE_PURGE_TOKEN: token } });
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (server.child.exitCode !== null) throw new Error(`varnishd exited with ${server.child.exitCode}:\n${server.output()}`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/health/live`);
        await response.arrayBuffer();
        if (response.status < 500) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`varnishd did not answer within 30 s:\n${server.output()}`);
      await sleep(100);
    }
  };
  await start();

  return {
    url: `http://127.0.0.1:${port}`,
    purgeUrl: `http://127.0.0.1:${port}/.cache/purge`,
    pid: () => server!.child.pid!,
    admin,
    async bans() {
      // "ban.list" lines: time, object count, flags, then the expression; the first is the header.
      return (await admin('ban.list'))
        .split('\n')
        .slice(1)
        .map((line) => line.trim().split(/\s+/).slice(3).join(' '))
        .filter(Boolean);
    },
    output: () => server?.output() ?? '',
    async stop() {
      await server?.stop();
    },
    start,
    async close() {
      await server?.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The operator's part: backends (probed), a round-robin director over them, then the committed logic. */
function topVcl(backends: readonly string[]): string {
  const declared = backends.map((target, i) => {
    const { hostname, port } = new URL(target);
    return `backend app${i} {
  .host = "${hostname}";
  .port = "${port}";
  .probe = { .url = "/health/ready"; .interval = 1s; .timeout = 1s; .window = 3; .threshold = 2; }
}`;
  });
  return `vcl 4.1;
import directors;
${declared.join('\n')}
sub vcl_init {
  new commerce = directors.round_robin();
${backends.map((_, i) => `  commerce.add_backend(app${i});`).join('\n')}
}
sub vcl_recv {
  set req.backend_hint = commerce.backend();
}
include "${COMMERCE_VCL}";
`;
}
