import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { createMailTransport } from '../src/email/transport.js';
import { freePort } from '../src/lib/ports.js';
import { hashToken } from '../src/lib/tokens.js';
import { signUp, uniqueEmail } from './helpers/factories.js';
import { headerOf, linkFrom, partOf, partsOf, startMailServer, subjectOf, tokenFrom, waitFor, type MailCatcher } from './helpers/mail.js';
import { deliveredRow, outboxRows, sendDueMail } from './helpers/outbox.js';
import { useApp } from './helpers/use-app.js';

/** The outbox worker delivering what the service queues: over SMTP, while SMTP is down, and as .eml files without it. */

const BASE = 'https://shop.example.test';
const VERIFY_SUBJECT = 'Verify your email address';

describe('over SMTP', () => {
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
});

describe('when SMTP is down', () => {
  let port: number;
  let late: MailCatcher | null = null;
  const t = useApp({
    env: async () => {
      port = await freePort();
      return {
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        EMAIL_POLL_INTERVAL_MS: '50',
        PUBLIC_BASE_URL: BASE,
        RATE_LIMIT_REGISTER: '0',
        RATE_LIMIT_VERIFY_RESEND: '0',
      };
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
  const t = useApp({
    env: { EMAIL_POLL_INTERVAL_MS: '50', PUBLIC_BASE_URL: BASE, RATE_LIMIT_REGISTER: '0', RATE_LIMIT_VERIFY_RESEND: '0' },
  });

  test('each message is written as an .eml file under DATA_DIR/mail', async () => {
    assert.equal(t.config.smtpUrl, null);
    const { email } = await signUp(t);
    const directory = path.join(t.config.dataDir, 'mail');
    const file = await waitFor(
      () => existsSync(directory) && readdirSync(directory).find((name) => name.endsWith('.eml') && name.includes(email)),
    );
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
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          transport.send({ from: t.config.mailFrom, to, subject: `message ${i}`, text: `body ${i}`, html: `<p>body ${i}</p>` }),
        ),
      );
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
