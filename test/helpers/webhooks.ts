import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Webhook } from 'standardwebhooks';
import type { RunningApp } from './app.js';
import type { Client } from './client.js';
import { waitFor } from './mail.js';

/**
 * A webhook receiver: a real HTTP server inside the test process that keeps
 * every request it gets (headers, raw body, parsed event) and answers as the
 * test says (`answer`): a status, a body, a delay, a redirect, or nothing at
 * all. Signatures are checked with the `standardwebhooks` package, as a
 * receiver would check them.
 */
export interface Arrival {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  event: any;
  /** The status it was answered with (null while unanswered, or never). */
  status: number | null;
  /** When it came and when it was answered (performance.now(), ms). */
  arrivedAt: number;
  answeredAt: number | null;
}

/** An answer: a status (with a body, headers), held back until `after` settles; or `hang`: none, ever. */
export type Answer = { status: number; body?: string; headers?: Record<string, string>; after?: Promise<unknown> } | 'hang';

export interface Receiver {
  readonly url: string;
  readonly port: number;
  readonly arrivals: Arrival[];
  /** How to answer a request (`count`: how many came before it, this one excluded). Default: 204. */
  answer: (arrival: Arrival, count: number) => Answer;
  /** The arrivals answered 2xx. */
  received(): Arrival[];
  /** Waits until `predicate` holds over the arrivals. */
  waitFor<T>(predicate: (arrivals: Arrival[]) => T | undefined | null | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const arrivals: Arrival[] = [];
  const hanging = new Set<ServerResponse>();
  const receiver = {} as Receiver & { answer: Receiver['answer'] };
  receiver.answer = () => ({ status: 204 });
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = (name: string) => String(request.headers[name] ?? '');
      let event: any = null;
      try {
        event = JSON.parse(body);
      } catch {
        // kept as is: the test will see a null event
      }
      const arrival: Arrival = {
        id: header('webhook-id'),
        timestamp: header('webhook-timestamp'),
        signature: header('webhook-signature'),
        body,
        event,
        status: null,
        arrivedAt: performance.now(),
        answeredAt: null,
      };
      const answer = receiver.answer(arrival, arrivals.length);
      arrivals.push(arrival);
      if (answer === 'hang') {
        hanging.add(response);
        return;
      }
      const send = () => {
        if (response.destroyed) return;
        arrival.status = answer.status;
        arrival.answeredAt = performance.now();
        response.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? '');
      };
      if (answer.after) void answer.after.then(send, send);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const { port: bound } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${bound}/hooks`,
    port: bound,
    arrivals,
    received: () => arrivals.filter((a) => a.status !== null && a.status >= 200 && a.status < 300),
    waitFor: <T>(predicate: (arrivals: Arrival[]) => T | undefined | null | false, timeoutMs = 10_000) =>
      waitFor(() => predicate(arrivals), timeoutMs),
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** Verifies an arrival as a receiver would (Standard Webhooks, any of the signatures), returning the event; throws otherwise. */
export function verify(secret: string, arrival: Pick<Arrival, 'id' | 'timestamp' | 'signature' | 'body'>): any {
  return new Webhook(secret).verify(arrival.body, {
    'webhook-id': arrival.id,
    'webhook-timestamp': arrival.timestamp,
    'webhook-signature': arrival.signature,
  });
}

export const WEBHOOKS = '/api/v1/admin/webhooks';

/** Creates an endpoint over the API; returns it with its secret (shown this once). */
export async function createEndpoint(superAdmin: Client, url: string, eventTypes: string[], extra: Record<string, unknown> = {}) {
  const response = await superAdmin.post(`${WEBHOOKS}/endpoints`, { url, event_types: eventTypes, ...extra });
  assert.equal(response.status, 201, response.text);
  return response.body.data as { public_id: string; secret: string; status: string; url: string };
}

/** The environment a test app needs to call receivers on 127.0.0.1. */
export const LOCAL_RECEIVERS = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1' };

/**
 * Sends by hand everything due (and what that makes due), with the app's
 * own dispatcher loop stopped meanwhile: once it returns, what the receivers
 * hold is all that finished requests have produced so far.
 */
export async function deliverDue(t: Pick<RunningApp, 'app' | 'config'>): Promise<number> {
  await t.app.eventDispatcher.stop();
  try {
    return await t.app.eventDispatcher.deliverDue();
  } finally {
    if (t.config.events.worker === 'in-process') t.app.eventDispatcher.start();
  }
}

/** The deliveries of an endpoint as its log lists them (newest first). */
export async function deliveryLog(superAdmin: Client, endpoint: string, query = '') {
  const response = await superAdmin.get(`${WEBHOOKS}/endpoints/${endpoint}/deliveries?limit=100${query ? `&${query}` : ''}`);
  assert.equal(response.status, 200, response.text);
  return response.body.data as any[];
}
