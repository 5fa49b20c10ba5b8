import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/lib/ports.js';
import { sleep } from './mail.js';
import { serverBinary, spawnServer } from './server-binary.js';

/**
 * The real HAProxy (Debian's, 2.6 on Debian 12) running the committed
 * deploy/haproxy/haproxy.cfg unchanged: the test gives it addresses through
 * the environment variables the file reads, as an operator would.
 */
export interface HaProxy {
  readonly url: string;
  /** Each server's row of `show stat`: status (UP, DOWN ...), requests retried (`wretr`) and redispatched (`wredis`). */
  servers(): Promise<Record<string, { status: string; wretr: number; wredis: number; hrsp_5xx: number }>>;
  /** Resolves once HAProxy's checks have marked every server UP. */
  waitUntilUp(names?: readonly string[], timeoutMs?: number): Promise<void>;
  output(): string;
  stop(): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const HAPROXY_CFG = path.join(ROOT, 'deploy', 'haproxy', 'haproxy.cfg');
/** The server names the committed file gives COMMERCE_1..3. */
export const HAPROXY_SERVERS = ['app1', 'app2', 'app3'] as const;

export async function startHaProxy(targets: readonly string[]): Promise<HaProxy> {
  const binary = serverBinary('haproxy', 'haproxy');
  if (targets.length !== HAPROXY_SERVERS.length) throw new Error(`the committed configuration has ${HAPROXY_SERVERS.length} servers`);
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'commerce-haproxy-'));
  const socket = path.join(dir, 'admin.sock');
  const env: Record<string, string> = { HAPROXY_BIND: `127.0.0.1:${port}`, HAPROXY_STATS_SOCKET: socket, HAPROXY_AS_ROOT: '1' };
  targets.forEach((target, i) => (env[`COMMERCE_${i + 1}`] = new URL(target).host));
  // -db: stay in the foreground; the logs go to stdout (the file's `log stdout`).
  const proxy = spawnServer(binary, ['-db', '-f', HAPROXY_CFG], { env });

  const command = (line: string) =>
    new Promise<string>((resolve, reject) => {
      let answer = '';
      const client = net.connect(socket, () => client.end(`${line}\n`));
      client.on('data', (chunk) => (answer += chunk.toString('utf8')));
      client.on('end', () => resolve(answer));
      client.on('error', reject);
    });

  const servers: HaProxy['servers'] = async () => {
    const [header, ...rows] = (await command('show stat')).trim().split('\n');
    const columns = header!.replace(/^# /, '').split(',');
    const at = (name: string) => columns.indexOf(name);
    const result: Awaited<ReturnType<HaProxy['servers']>> = {};
    for (const row of rows.map((r) => r.split(','))) {
      if (row[at('pxname')] !== 'commerce' || ['FRONTEND', 'BACKEND'].includes(row[at('svname')]!)) continue;
      result[row[at('svname')]!] = {
        status: row[at('status')]!,
        wretr: Number(row[at('wretr')]),
        wredis: Number(row[at('wredis')]),
        hrsp_5xx: Number(row[at('hrsp_5xx')]),
      };
    }
    return result;
  };

  const started = Date.now();
  for (;;) {
    if (proxy.child.exitCode !== null) throw new Error(`haproxy exited with ${proxy.child.exitCode}:\n${proxy.output()}`);
    try {
      await servers();
      break;
    } catch (error) {
      if (Date.now() - started > 10_000) {
        await proxy.stop();
        throw new Error(`haproxy's stats socket did not answer within 10 s (${(error as Error).message}):\n${proxy.output()}`, {
          cause: error,
        });
      }
      await sleep(100);
    }
  }

  return {
    url: `http://127.0.0.1:${port}`,
    servers,
    async waitUntilUp(names = HAPROXY_SERVERS, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const states = await servers();
        if (names.every((name) => states[name]?.status === 'UP')) return;
        if (Date.now() > deadline) throw new Error(`servers not UP after ${timeoutMs} ms: ${JSON.stringify(states)}`);
        await sleep(100);
      }
    },
    output: proxy.output,
    async stop() {
      await proxy.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
