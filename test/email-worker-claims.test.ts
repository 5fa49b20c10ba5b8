import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { createDb } from '../src/db/database.js';
import { createEmailWorker } from '../src/email/worker.js';
import { createMailTransport } from '../src/email/transport.js';
import { signUp } from './helpers/factories.js';
import { startTcpProxy } from './helpers/tcp-proxy.js';
import { sleep, waitFor } from './helpers/mail.js';
import { anotherWorker, deliveredRow, outboxRows } from './helpers/outbox.js';
import { useApp } from './helpers/use-app.js';

/** The outbox worker when several run over one outbox: claims, leases, heartbeats, and what a failure leaves to the others. */

const BASE = 'https://shop.example.test';

describe('workers sharing one outbox, over SMTP', () => {
  const t = useApp({
    mail: true,
    env: {
      EMAIL_POLL_INTERVAL_MS: '50',
      PUBLIC_BASE_URL: BASE,
      MAIL_FROM: 'Test Store <store@example.test>',
      RATE_LIMIT_REGISTER: '0',
      RATE_LIMIT_VERIFY_RESEND: '0',
    },
  });
  // A hung send would otherwise hang the file: each test fails alone instead.
  const it = (name: string, fn: () => Promise<void>) => void test(name, { timeout: 30_000 }, fn);

  it('two workers over the same outbox deliver each message exactly once', async () => {
    await t.app.emailWorker.stop();
    const secondTransport = createMailTransport(t.config);
    const second = anotherWorker(t, secondTransport);
    try {
      // More than one batch (20) is waiting when both start at the same moment.
      const emails: string[] = [];
      for (let i = 0; i < 30; i++) emails.push((await signUp(t)).email);
      t.app.emailWorker.start();
      second.start();
      await waitFor(() => emails.every((email) => t.mail.to(email).length > 0), 10_000);
      await waitFor(async () => {
        const pending = await t.db
          .selectFrom('outbox')
          .select('id')
          .where('recipient', 'in', emails)
          .where('delivered_at', 'is', null)
          .execute();
        return pending.length === 0;
      });
      // Both stopped (a batch under way finishes first): whatever either sent has arrived.
      await second.stop();
      await t.app.emailWorker.stop();
      assert.equal(await t.app.emailWorker.runOnce(), 0, 'nothing left to send');
      const counts = emails.map((email) => t.mail.to(email).length);
      assert.deepEqual(
        counts,
        emails.map(() => 1),
      );
      const rows = await t.db.selectFrom('outbox').select('attempts').where('recipient', 'in', emails).execute();
      assert.deepEqual(
        rows.map((row) => row.attempts),
        emails.map(() => 1),
      );
    } finally {
      await second.stop();
      secondTransport.close();
      t.app.emailWorker.start();
    }
  });

  it('no transaction stays open while sending; a worker that dies mid-batch has its messages sent again after the lease', async () => {
    await t.app.emailWorker.stop();
    let release: () => void = () => {};
    // A transport that never answers, like a worker that died after claiming its batch.
    const stuck = anotherWorker(t, {
      send: () => new Promise<{ file?: string }>((resolve) => (release = () => resolve({}))),
      close: () => {},
    });
    try {
      const { email } = await signUp(t);
      const claimed = stuck.runOnce();
      await waitFor(async () => ((await outboxRows(t, email))[0]!.next_attempt_at.getTime() > t.clock.now().getTime() ? true : undefined));
      const open = await t.db
        .selectFrom(sql`pg_stat_activity`.as('a'))
        .select(sql<number>`count(*)::int`.as('n'))
        .where(sql`state`, 'like', 'idle in transaction%')
        .where(sql`datname`, '=', sql`current_database()`)
        .executeTakeFirstOrThrow();
      assert.equal(open.n, 0, 'no transaction is held while the send is in flight');

      assert.equal(await t.app.emailWorker.runOnce(), 0, 'the claimed message is not taken by another worker');
      assert.equal(t.mail.to(email).length, 0);
      t.clock.advance(31 * 60_000);
      assert.ok((await t.app.emailWorker.runOnce()) >= 1);
      assert.equal(t.mail.to(email).length, 1, 'sent again once the lease is over');
      assert.ok((await deliveredRow(t, email)).delivered_at);
      release();
      await claimed;
    } finally {
      release();
      t.app.emailWorker.start();
    }
  });

  it('a live worker keeps its claim past the lease (heartbeat), and marks each message delivered as it is sent', async () => {
    await t.app.emailWorker.stop();
    const secondTransport = createMailTransport(t.config);
    let sends = 0;
    // A slow relay: each send takes 2.5 s, past the 1 s lease. (A lease much shorter than this lets a loaded machine's
    // event-loop stalls outlast it, and the worker then rightly gives the batch up.)
    const slow = anotherWorker(t, { send: async (m) => (sends++, await sleep(2500), secondTransport.send(m)), close: () => {} }, 1000);
    try {
      const emails = [(await signUp(t)).email, (await signUp(t)).email];
      const batch = slow.runOnce();
      await waitFor(() => sends === 1);
      // Real time past the 1 s lease, on purpose: only the worker's heartbeat (a real timer) keeps the claim alive.
      await sleep(1500);
      assert.equal(await t.app.emailWorker.runOnce(), 0, 'nothing of the batch is free while its worker lives');
      await waitFor(() => sends === 2, 10_000);
      const [firstRow] = await outboxRows(t, emails[0]!);
      assert.ok(firstRow!.delivered_at, 'the first message is marked delivered before the second is sent');
      assert.equal(await batch, 2);
      for (const email of emails) assert.equal(t.mail.to(email).length, 1, email);
    } finally {
      secondTransport.close();
      t.app.emailWorker.start();
    }
  });

  it('a worker whose lease lapsed and whose send then fails leaves alone the claim of the worker now sending it', async () => {
    await t.app.emailWorker.stop();
    const gates: { a?: (error: Error) => void; b?: () => void } = {};
    const lapsed = anotherWorker(t, { send: () => new Promise<{ file?: string }>((_, reject) => (gates.a = reject)), close: () => {} });
    const secondTransport = createMailTransport(t.config);
    const current = anotherWorker(t, {
      send: (m) => new Promise<void>((resolve) => (gates.b = resolve)).then(() => secondTransport.send(m)),
      close: () => {},
    });
    try {
      const { email } = await signUp(t);
      const first = lapsed.runOnce();
      await waitFor(() => gates.a !== undefined);
      // Its lease ends (as if its heartbeats had stopped reaching the database); another worker takes the message.
      await t.db
        .updateTable('outbox')
        .set({ next_attempt_at: new Date(t.clock.now().getTime() - 1000) })
        .where('recipient', '=', email)
        .execute();
      const second = current.runOnce();
      await waitFor(() => gates.b !== undefined);
      const [taken] = await outboxRows(t, email);
      gates.a!(new Error('SMTP relay hung up'));
      await first;
      const [after] = await outboxRows(t, email);
      assert.equal(after!.claim, taken!.claim, 'the second claim still holds the message');
      assert.equal(after!.last_error, null);
      assert.equal(after!.next_attempt_at.getTime(), taken!.next_attempt_at.getTime());
      gates.b!();
      assert.equal(await second, 1);
      assert.equal(t.mail.to(email).length, 1);
      assert.equal((await deliveredRow(t, email)).attempts, 1);
    } finally {
      gates.b?.();
      secondTransport.close();
      t.app.emailWorker.start();
    }
  });

  it('a sent message whose database connection is cut before it is marked is marked on a new connection, not sent again', async () => {
    await t.app.emailWorker.stop();
    const proxy = await startTcpProxy(new URL(t.config.databaseUrl!));
    const viaProxy = new URL(t.config.databaseUrl!);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    const db = createDb(viaProxy.toString(), 2);
    const secondTransport = createMailTransport(t.config);
    const worker = createEmailWorker({
      db,
      // The relay accepts the message; at that moment the connection to the database goes away for 300 ms.
      transport: { send: async (m) => (await secondTransport.send(m), proxy.cut(300), {}), close: () => {} },
      clock: t.clock,
      log: t.app.log,
      mailFrom: t.config.mailFrom,
      publicBaseUrl: t.config.publicBaseUrl,
      pollIntervalMs: 10,
    });
    try {
      const { email } = await signUp(t);
      assert.equal(await worker.runOnce(), 1);
      assert.ok(proxy.cuts > 0, 'the connection was cut');
      const [row] = await outboxRows(t, email);
      assert.ok(row!.delivered_at, 'marked delivered');
      assert.equal(row!.attempts, 1);
      assert.equal(row!.last_error, null);
      t.clock.advance(60 * 60_000);
      assert.equal(await t.app.emailWorker.runOnce(), 0, 'nothing left to send');
      assert.equal(t.mail.to(email).length, 1, 'sent once');
    } finally {
      await db.destroy().catch(() => {});
      await proxy.close();
      secondTransport.close();
      t.app.emailWorker.start();
    }
  });

  it('concurrent runOnce calls never send the same message twice', async () => {
    await t.app.emailWorker.stop();
    try {
      const emails: string[] = [];
      for (let i = 0; i < 5; i++) emails.push((await signUp(t)).email);
      const sent = await Promise.all([t.app.emailWorker.runOnce(), t.app.emailWorker.runOnce(), t.app.emailWorker.runOnce()]);
      assert.equal(
        sent.reduce((a, b) => a + b, 0),
        5,
        `claimed per call: ${sent.join(', ')}`,
      );
      for (const email of emails) assert.equal(t.mail.to(email).length, 1, email);
    } finally {
      t.app.emailWorker.start();
    }
  });

  it('a message that cannot be rendered is set aside with its error and does not hold back (or repeat) the rest of its batch', async () => {
    await t.app.emailWorker.stop();
    try {
      const poison = `poison-${Date.now()}@example.test`;
      await t.db
        .insertInto('outbox')
        .values({ kind: 'no_such_kind', recipient: poison, payload: JSON.stringify({}) })
        .execute();
      const { email } = await signUp(t);
      await t.app.emailWorker.runOnce();
      await t.app.emailWorker.runOnce();
      assert.equal(t.mail.to(email).length, 1, 'the good message is sent once');
      assert.ok((await deliveredRow(t, email)).delivered_at);
      const [bad] = await outboxRows(t, poison);
      assert.equal(bad?.delivered_at, null);
      assert.equal(bad?.attempts, 1);
      assert.ok(bad?.last_error);
      assert.ok(bad!.next_attempt_at.getTime() > t.clock.now().getTime());
    } finally {
      t.app.emailWorker.start();
    }
  });
});
