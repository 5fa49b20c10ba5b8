import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { AddressPolicy } from './address-policy.js';
import { createHostResolver } from './host-resolver.js';

/**
 * One webhook POST, as safely as a request to a URL someone typed can be:
 * the host is resolved and every address checked (./address-policy.ts) at
 * each attempt, the connection goes to the checked address (TLS still
 * verifies the host name), redirects are answered as failures and never
 * followed, the whole attempt (resolution, connection, answer, body) has one
 * deadline, and at most `maxBodyBytes` of the answer are read.
 */
export interface PostResult {
  /** The receiver's HTTP status, when it answered. */
  status: number | null;
  /** The first bytes of its answer, as text. */
  body: string | null;
  /** Why there is no 2xx, for the log. */
  error: string | null;
}

export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

export interface HttpSenderOptions {
  policy: AddressPolicy;
  timeoutMs: number;
  maxBodyBytes: number;
  /** How host names are resolved (default: ./host-resolver.ts with the system's DNS servers; tests substitute one to play a DNS server). */
  resolve?: Resolve;
}

/** A lookup that answers with the one address already checked, whatever the caller asks. */
const pinnedTo =
  (address: string, family: number): LookupFunction =>
  (_host, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };

const describe = (error: unknown) => {
  const { code, message } = error as { code?: string; message?: string };
  return code && !message?.includes(code) ? `${code}: ${message}` : String(message ?? error);
};

export function createHttpSender(options: HttpSenderOptions) {
  const resolve = options.resolve ?? createHostResolver({ timeoutMs: options.timeoutMs });
  // Kept-alive connections save a handshake per delivery to a busy receiver; each one was made to a checked address.
  const agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: 32, timeout: 30_000 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 32, timeout: 30_000 }),
  };

  async function checkedAddress(host: string): Promise<{ address: string; family: number }> {
    const bare = host.startsWith('[') ? host.slice(1, -1) : host;
    const addresses = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await resolve(bare);
    if (addresses.length === 0) throw new Error(`${bare} has no address`);
    for (const { address } of addresses) {
      const refusal = options.policy.refusal(address);
      if (refusal) throw new Error(`refused: ${bare === address ? '' : `${bare} resolves to `}${refusal}, which webhooks may not call`);
    }
    return addresses[0]!;
  }

  function post(url: string, headers: Record<string, string>, body: string): Promise<PostResult> {
    return new Promise((resolvePost) => {
      let request: http.ClientRequest | null = null;
      let settled = false;
      const settle = (result: PostResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolvePost(result);
      };
      const timer = setTimeout(() => {
        settle({ status: null, body: null, error: `timed out after ${options.timeoutMs} ms` });
        request?.destroy();
      }, options.timeoutMs);

      const target = new URL(url);
      checkedAddress(target.hostname).then(
        ({ address, family }) => {
          if (settled) return;
          const secure = target.protocol === 'https:';
          request = (secure ? https : http).request(target, {
            method: 'POST',
            agent: secure ? agents.https : agents.http,
            lookup: pinnedTo(address, family),
            headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
          });
          request.on('error', (error) => settle({ status: null, body: null, error: describe(error) }));
          request.on('response', (response) => {
            const status = response.statusCode ?? 0;
            const chunks: Buffer[] = [];
            let size = 0;
            const done = () => {
              const text = Buffer.concat(chunks).subarray(0, options.maxBodyBytes).toString('utf8').replace(/\0/g, '\uFFFD');
              const error =
                status >= 200 && status < 300
                  ? null
                  : status >= 300 && status < 400
                    ? `answered ${status}: redirects are not followed`
                    : `answered ${status}`;
              settle({ status, body: text, error });
            };
            response.on('data', (chunk: Buffer) => {
              chunks.push(chunk);
              size += chunk.length;
              // Enough read: the rest is never downloaded (the connection is dropped, not reused).
              if (size >= options.maxBodyBytes) {
                done();
                response.destroy();
              }
            });
            response.on('end', done);
            // Closed before its end (the receiver hung up mid-body): what came is what it answered.
            response.on('close', done);
            response.on('error', (error) => settle({ status, body: null, error: describe(error) }));
          });
          request.end(body);
        },
        (error: unknown) => settle({ status: null, body: null, error: describe(error) }),
      );
    });
  }

  return {
    post,
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

export type HttpSender = ReturnType<typeof createHttpSender>;
