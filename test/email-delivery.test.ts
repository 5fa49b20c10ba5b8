import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
import { createDb } from '../src/db/database.js';
import { createEmailWorker } from '../src/email/worker.js';
import { createMailTransport, type MailTransport } from '../src/email/transport.js';
import { hashToken } from '../src/lib/tokens.js';
import { type RunningApp } from './helpers/app.js';
import { signUp, uniqueEmail } from './helpers/factories.js';
import { startTcpProxy } from './helpers/tcp-proxy.js';
import { closedPort, headerOf, linkFrom, partOf, partsOf, sleep, startMailServer, subjectOf, tokenFrom, waitFor, type MailCatcher } from './helpers/mail.js';
import { outboxRows, sendDueMail } from './helpers/outbox.js';
import { useApp } from './helpers/use-app.js';

const BASE = 'https://shop.example.test';
const VERIFY_SUBJECT = 'Verify your email address';

async function deliveredRow(t: RunningApp, recipient: string) {
  return waitFor(async () => {
    const rows = await outboxRows(t, recipient);
    return rows.length === 1 && rows[0]!.delivered_at ? rows[0] : undefined;
  });
}

/** A second worker over the app's outbox, with a transport of its own. */
const anotherWorker = (t: RunningApp, transport: MailTransport, leaseMs?: number) =>
  createEmailWorker({
    leaseMs,
    db: t.db,
    transport,
    clock: t.clock,
    log: t.app.log,
    mailFrom: t.config.mailFrom,
    publicBaseUrl: t.config.publicBaseUrl,
    pollIntervalMs: 10,
  });

describe('over SMTP', () => {
  const t = useApp({
    mail: true,
    env: { EMAIL_POLL_INTERVAL_MS: '50', PUBLIC_BASE_URL: BASE, MAIL_FROM: 'Test Store <store@example.test>', RATE_LIMIT_REGISTER: '0', RATE_LIMIT_VERIFY_RESEND: '0' },
  });

  test('register sends a verification email with a text and an HTML part and a token link', async () => {
    const { email, user } = await signUp(t);
    const message = await t.mail.waitForMail(email, VERIFY_SUBJECT);
    assert.deepEqual(message.to, [email]);
    assert.match(headerOf(message.raw, 'from') ?? '', /store@example\.test/);
    assert.match(headerOf(message.raw, 'to') ?? '', new RegExp(email.replace(/[.]/g, '\\.')));

    const types = partsOf(message.raw).map((part) => part.contentType);
    assert.ok(types.includes('text/plain') && types.includes('text/html'), `parts: ${types.join(', ')}`);
    const link = linkFrom(message.raw);
    assert.ok(link.startsWith(`${BASE}/verify-email?token=`), link);
    const token = tokenFrom(message.raw);
    assert.ok(token.length >= 32);
    assert.ok(partOf(message.raw, 'text/html')!.includes(link), 'the HTML part carries the same link');

    // The link's token is the one stored (hashed) for this account.
    const stored = await t.db
      .selectFrom('account_tokens')
      .innerJoin('users', 'users.id', 'account_tokens.user_id')
      .select(['users.public_id', 'account_tokens.purpose', 'account_tokens.used_at'])
      .where('account_tokens.token_hash', '=', hashToken(token))
      .executeTakeFirst();
    assert.deepEqual(stored, { public_id: user.public_id, purpose: 'VERIFY_EMAIL', used_at: null });
  });

  test('a delivered outbox row is marked delivered and its payload no longer holds the token', async () => {
    const { email } = await signUp(t);
    const message = await t.mail.waitForMail(email, VERIFY_SUBJECT);
    const token = tokenFrom(message.raw);
    const row = await deliveredRow(t, email);
    assert.equal(row.kind, 'verify_email');
    assert.equal(row.attempts, 1);
    assert.equal(row.last_error, null);
    assert.equal(row.payload.token, undefined);
    assert.ok(!JSON.stringify(row.payload).includes(token), JSON.stringify(row.payload));
  });

  test('a message committed while the worker is stopped waits in the outbox and is sent once it starts', async () => {
    await t.app.emailWorker.stop();
    try {
      const { email } = await signUp(t);
      assert.equal(t.mail.to(email).length, 0, 'nothing is sent while the worker is stopped');
      const [pending, ...more] = await outboxRows(t, email);
      assert.equal(more.length, 0);
      assert.equal(pending?.delivered_at, null);
      assert.equal(pending?.attempts, 0);
      assert.equal(pending?.claim, null, 'no worker holds it');
      assert.ok(pending!.next_attempt_at.getTime() <= t.clock.now().getTime(), 'it is due: only the stopped worker keeps it waiting');
      assert.ok(pending?.payload.token, 'a pending message still holds what it needs to be sent');

      t.app.emailWorker.start();
      await t.mail.waitForMail(email, VERIFY_SUBJECT);
      await deliveredRow(t, email);
      assert.equal(await sendDueMail(t), 0, 'nothing of it is left to send');
      assert.equal(t.mail.to(email).length, 1, 'delivered exactly once');
    } finally {
      t.app.emailWorker.start();
    }
  });

  test('two workers over the same outbox deliver each message exactly once', async () => {
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
        const pending = await t.db.selectFrom('outbox').select('id').where('recipient', 'in', emails).where('delivered_at', 'is', null).execute();
        return pending.length === 0;
      });
      // Both stopped (a batch under way finishes first): whatever either sent has arrived.
      await second.stop();
      await t.app.emailWorker.stop();
      assert.equal(await t.app.emailWorker.runOnce(), 0, 'nothing left to send');
      const counts = emails.map((email) => t.mail.to(email).length);
      assert.deepEqual(counts, emails.map(() => 1));
      const rows = await t.db.selectFrom('outbox').select('attempts').where('recipient', 'in', emails).execute();
      assert.deepEqual(rows.map((row) => row.attempts), emails.map(() => 1));
    } finally {
      await second.stop();
      secondTransport.close();
      t.app.emailWorker.start();
    }
  });

  test('no transaction stays open while sending; a worker that dies mid-batch has its messages sent again after the lease', async () => {
    await t.app.emailWorker.stop();
    let release: () => void = () => {};
    // A transport that never answers, like a worker that died after claiming its batch.
    const stuck = anotherWorker(t, { send: () => new Promise<{ file?: string }>((resolve) => (release = () => resolve({}))), close: () => {} });
    try {
      const { email } = await signUp(t);
      const claimed = stuck.runOnce();
      await waitFor(async () => ((await outboxRows(t, email))[0]!.next_attempt_at.getTime() > t.clock.now().getTime() ? true : undefined));
      const open = await t.db.selectFrom(sql`pg_stat_activity`.as('a')).select(sql<number>`count(*)::int`.as('n')).where(sql`state`, 'like', 'idle in transaction%').where(sql`datname`, '=', sql`current_database()`).executeTakeFirstOrThrow();
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

  test('a live worker keeps its claim past the lease (heartbeat), and marks each message delivered as it is sent', async () => {
    await t.app.emailWorker.stop();
    const secondTransport = createMailTransport(t.config);
    let sends = 0;
    // A slow relay: each send takes 800 ms, four times the 200 ms lease.
    const slow = anotherWorker(t, { send: async (m) => (sends++, await sleep(800), secondTransport.send(m)), close: () => {} }, 200);
    try {
      const emails = [(await signUp(t)).email, (await signUp(t)).email];
      const batch = slow.runOnce();
      await waitFor(() => sends === 1);
      // Real time past the 200 ms lease, on purpose: only the worker's heartbeat (a real timer) keeps the claim alive.
      await sleep(400);
      assert.equal(await t.app.emailWorker.runOnce(), 0, 'nothing of the batch is free while its worker lives');
      await waitFor(() => sends === 2);
      const [firstRow] = await outboxRows(t, emails[0]!);
      assert.ok(firstRow!.delivered_at, 'the first message is marked delivered before the second is sent');
      assert.equal(await batch, 2);
      for (const email of emails) assert.equal(t.mail.to(email).length, 1, email);
    } finally {
      secondTransport.close();
      t.app.emailWorker.start();
    }
  });

  test('a worker whose lease lapsed and whose send then fails leaves alone the claim of the worker now sending it', async () => {
    await t.app.emailWorker.stop();
    const gates: { a?: (error: Error) => void; b?: () => void } = {};
    const lapsed = anotherWorker(t, { send: () => new Promise<{ file?: string }>((_, reject) => (gates.a = reject)), close: () => {} });
    const secondTransport = createMailTransport(t.config);
    const current = anotherWorker(t, { send: (m) => new Promise<void>((resolve) => (gates.b = resolve)).then(() => secondTransport.send(m)), close: () => {} });
    try {
      const { email } = await signUp(t);
      const first = lapsed.runOnce();
      await waitFor(() => gates.a !== undefined);
      // Its lease ends (as if its heartbeats had stopped reaching the database); another worker takes the message.
      await t.db.updateTable('outbox').set({ next_attempt_at: new Date(t.clock.now().getTime() - 1000) }).where('recipient', '=', email).execute();
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

  test('a sent message whose database connection is cut before it is marked is marked on a new connection, not sent again', async () => {
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

  test('concurrent runOnce calls never send the same message twice', async () => {
    await t.app.emailWorker.stop();
    try {
      const emails: string[] = [];
      for (let i = 0; i < 5; i++) emails.push((await signUp(t)).email);
      const sent = await Promise.all([t.app.emailWorker.runOnce(), t.app.emailWorker.runOnce(), t.app.emailWorker.runOnce()]);
      assert.equal(sent.reduce((a, b) => a + b, 0), 5, `claimed per call: ${sent.join(', ')}`);
      for (const email of emails) assert.equal(t.mail.to(email).length, 1, email);
    } finally {
      t.app.emailWorker.start();
    }
  });

  test('a message that cannot be rendered is set aside with its error and does not hold back (or repeat) the rest of its batch', async () => {
    await t.app.emailWorker.stop();
    try {
      const poison = `poison-${Date.now()}@example.test`;
      await t.db.insertInto('outbox').values({ kind: 'no_such_kind', recipient: poison, payload: JSON.stringify({}) }).execute();
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

describe('when SMTP is down', () => {
  let port: number;
  let late: MailCatcher | null = null;
  const t = useApp({
    env: async () => {
      port = await closedPort();
      return { SMTP_URL: `smtp://127.0.0.1:${port}`, EMAIL_POLL_INTERVAL_MS: '50', PUBLIC_BASE_URL: BASE, RATE_LIMIT_REGISTER: '0', RATE_LIMIT_VERIFY_RESEND: '0' };
    },
  });
  after(async () => {
    await late?.close();
  });

  test('a failed send stays pending with the error recorded and retries with growing backoff, then delivers', async () => {
    const { email } = await signUp(t);
    const first = await waitFor(async () => (await outboxRows(t, email)).find((row) => row.attempts >= 1));
    assert.equal(first.attempts, 1);
    assert.equal(first.delivered_at, null);
    assert.ok(first.last_error && first.last_error.length > 0, 'last_error is recorded');
    const wait1 = first.next_attempt_at.getTime() - t.clock.now().getTime();
    assert.ok(wait1 > 8_000 && wait1 <= 10_000, `first backoff about 10 s, got ${wait1} ms`);
    assert.ok(first.payload.token, 'the token is kept until the message is sent');

    // No retry before the backoff has passed.
    assert.equal(await sendDueMail(t), 0, 'nothing is due during the backoff');
    assert.equal((await outboxRows(t, email))[0]!.attempts, 1);

    // Past the backoff: a second attempt, and a longer wait after it.
    t.clock.advance(11_000);
    const second = await waitFor(async () => (await outboxRows(t, email)).find((row) => row.attempts >= 2));
    assert.equal(second.attempts, 2);
    const wait2 = second.next_attempt_at.getTime() - t.clock.now().getTime();
    assert.ok(wait2 > 18_000 && wait2 <= 20_000, `second backoff about 20 s, got ${wait2} ms`);

    // The server comes back on the same port: the next due attempt delivers, once.
    late = await startMailServer(port);
    assert.equal(await sendDueMail(t), 0, 'nothing is due during the backoff');
    assert.equal(late.to(email).length, 0, 'still waiting for the backoff');
    t.clock.advance(21_000);
    const message = await late.waitForMail(email, VERIFY_SUBJECT);
    assert.ok(tokenFrom(message.raw).length >= 32);
    const row = await deliveredRow(t, email);
    assert.equal(row.attempts, 3);
    assert.equal(row.last_error, null);
    assert.equal(await sendDueMail(t), 0, 'nothing left to send');
    assert.equal(late.to(email).length, 1);
  });
});

describe('without SMTP_URL', () => {
  const t = useApp({ env: { EMAIL_POLL_INTERVAL_MS: '50', PUBLIC_BASE_URL: BASE, RATE_LIMIT_REGISTER: '0', RATE_LIMIT_VERIFY_RESEND: '0' } });

  test('each message is written as an .eml file under DATA_DIR/mail', async () => {
    assert.equal(t.config.smtpUrl, null);
    const { email } = await signUp(t);
    const directory = path.join(t.config.dataDir, 'mail');
    const file = await waitFor(() => existsSync(directory) && readdirSync(directory).find((name) => name.endsWith('.eml') && name.includes(email)));
    const raw = readFileSync(path.join(directory, file), 'utf8');
    assert.equal(subjectOf(raw), VERIFY_SUBJECT);
    assert.match(headerOf(raw, 'to') ?? '', new RegExp(email.replace(/[.]/g, '\\.')));
    assert.ok(linkFrom(raw).startsWith(`${BASE}/verify-email?token=`));
    const types = partsOf(raw).map((part) => part.contentType);
    assert.ok(types.includes('text/plain') && types.includes('text/html'), `parts: ${types.join(', ')}`);
    const row = await deliveredRow(t, email);
    assert.ok(!JSON.stringify(row.payload).includes(tokenFrom(raw)), 'the delivered row no longer holds the token');
    // The token in the file is live: it verifies the account.
    const verify = await t.client().post('/api/v1/auth/email-verification/verify', { token: tokenFrom(raw) });
    assert.equal(verify.status, 200, verify.text);
    assert.equal(verify.body.data.email_verified, true);
  });

  test('several messages to one recipient in one batch each get a file of their own', async () => {
    await t.app.emailWorker.stop();
    try {
      const { client, email } = await signUp(t);
      for (let i = 0; i < 4; i++) assert.equal((await client.post('/api/v1/auth/email-verification/resend')).status, 202);
      assert.equal(await t.app.emailWorker.runOnce(), 5);
      const directory = path.join(t.config.dataDir, 'mail');
      const files = readdirSync(directory).filter((name) => name.includes(email));
      assert.equal(files.length, 5, `files: ${files.join(', ')}`);
      const tokens = new Set(files.map((name) => tokenFrom(readFileSync(path.join(directory, name), 'utf8'))));
      assert.equal(tokens.size, 5);
    } finally {
      t.app.emailWorker.start();
    }
  });

  test('concurrent sends to one recipient never overwrite each other (one file per message)', async () => {
    const transport = createMailTransport({ smtpUrl: null, dataDir: t.config.dataDir });
    const to = uniqueEmail('burst');
    try {
      await Promise.all(Array.from({ length: 20 }, (_, i) => transport.send({ from: t.config.mailFrom, to, subject: `message ${i}`, text: `body ${i}`, html: `<p>body ${i}</p>` })));
    } finally {
      transport.close();
    }
    const directory = path.join(t.config.dataDir, 'mail');
    const subjects = readdirSync(directory)
      .filter((name) => name.includes(to))
      .map((name) => subjectOf(readFileSync(path.join(directory, name), 'utf8')));
    assert.equal(new Set(subjects).size, 20, `subjects: ${subjects.join(', ')}`);
  });
});
