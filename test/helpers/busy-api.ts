import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import type { Db } from '../../src/db/database.js';
import { PER_TARGET } from '../../src/events/dispatcher.js';
import { recordEvents } from '../../src/events/repository.js';
import type { Arrival, Receiver } from './webhooks.js';

/**
 * Making the API busy as its event dispatcher sees it (requests in flight,
 * EVENT_YIELD_AT_REQUESTS), and telling from a receiver's arrivals whether the
 * dispatcher yielded.
 */

/** How often the dispatcher of an app started with `YIELDING_AT_ONE_REQUEST` polls. */
export const POLL_MS = 1500;

/** An app whose dispatcher yields while a single request is in flight (mail left alone). */
export const YIELDING_AT_ONE_REQUEST = { EMAIL_WORKER: 'off', EVENT_POLL_INTERVAL_MS: String(POLL_MS), EVENT_YIELD_AT_REQUESTS: '1' };

export async function connectTo(baseUrl: string): Promise<{ socket: Socket; port: string }> {
  const { port } = new URL(baseUrl);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, port };
}

/** A request the API is answering until the socket is closed: its head, with a body announced and never sent (an upload to the image host, which waits for its form's first field). */
export async function requestHeldOpen(baseUrl: string): Promise<Socket> {
  const { socket, port } = await connectTo(baseUrl);
  socket.write(
    `POST /media/api/v1/files/upload HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: multipart/form-data; boundary=held\r\nContent-Length: 4096\r\n\r\n`,
  );
  return socket;
}

/** Three full shares' worth of customer.registered events, written at once; returns their emails. */
export async function backlog(db: Db, tag: string): Promise<Set<string>> {
  const events = Array.from({ length: 3 * PER_TARGET }, (_, i) => {
    const email = `${tag}-${i}@example.com`;
    return {
      orderingKey: `usr_${tag}_${i}`,
      data: {
        customer: {
          public_id: `usr_${tag}_${i}`,
          email,
          first_name: 'Ada',
          last_name: 'Lovelace',
          phone_number: null,
          created_at: new Date().toISOString(),
        },
      },
    };
  });
  await recordEvents(db, 'customer.registered', events);
  return new Set(events.map((e) => e.data.customer.email));
}

/** The arrivals of the events for these emails. */
export const of = (emails: Set<string>) => (arrivals: Arrival[]) => arrivals.filter((a) => emails.has(a.event?.data?.customer?.email));

/** Writes a backlog of three shares and checks they went out one right after another, not a poll interval apart. */
export async function goesOutAtOnce(db: Db, receiver: Receiver, tag: string): Promise<void> {
  const emails = await backlog(db, tag);
  const arrivals = await receiver.waitFor((all) => (of(emails)(all).length === emails.size ? of(emails)(all) : null), 20_000);
  const spread = arrivals.at(-1)!.arrivedAt - arrivals[0]!.arrivedAt;
  assert.ok(spread < POLL_MS * 0.7, `three shares went out within ${Math.round(spread)} ms, not a poll interval apart`);
}
