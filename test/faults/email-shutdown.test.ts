import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { fileMailServer, headerOf, waitFor } from '../helpers/mail.js';
import { fileDatabase, startService, type ServiceProcess } from '../helpers/service.js';

/**
 * Issue 13, graceful shutdown of the email worker: a worker that gets SIGTERM
 * while the relay has its first message but has not yet answered finishes
 * that message and hands back the rest of its claim, so another worker sends
 * them at once. The relay holds its answer until the worker has begun to
 * stop, so the test does not depend on timing. The lease is 10 minutes: only
 * the hand-back, never the lease running out, lets another worker take them
 * within the test. Once for the API's in-process worker, once for
 * `npm run worker`.
 */
const file = fileDatabase();
const mail = fileMailServer();

const BATCH = 10; // one claim (a worker claims up to 20)
const env = (extra: Record<string, string> = {}) => ({
  SMTP_URL: mail.url,
  EMAIL_LEASE_MS: '600000',
  EMAIL_POLL_INTERVAL_MS: '100',
  ...extra,
});

/** `BATCH` messages due now, in one statement (so one worker claims them together); their outbox IDs. */
async function enqueue(tag: string): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`
    INSERT INTO outbox (kind, recipient, payload)
    SELECT 'verify_email', ${tag} || '-' || n || '@example.test', jsonb_build_object('first_name', 'Batch', 'token', md5(${tag} || n))
    FROM generate_series(1, ${BATCH}::int) AS n
    RETURNING id`.execute(file.db);
  return rows.map((row) => row.id);
}

/** How many times the relay received each outbox message (by its Message-ID, `<outbox-ID@host>`). */
function receptions(ids: number[]): Map<number, number> {
  const counts = new Map(ids.map((id) => [id, 0]));
  for (const message of mail.messages) {
    const id = Number(/^<outbox-(\d+)@/.exec(headerOf(message.raw, 'message-id') ?? '')?.[1]);
    if (counts.has(id)) counts.set(id, counts.get(id)! + 1);
  }
  return counts;
}
const received = (ids: number[]) => [...receptions(ids)].filter(([, n]) => n > 0).map(([id]) => id);

const rowsOf = (ids: number[]) =>
  file.db.selectFrom('outbox').select(['id', 'claim', 'next_attempt_at', 'delivered_at']).where('id', 'in', ids).orderBy('id').execute();

/** Holds the relay's answers, then waits until it has the first message of the batch (whose sender now waits). */
async function firstMessageInFlight(ids: number[], sender: ServiceProcess): Promise<void> {
  mail.holdReplies();
  await withLogsOf(
    sender,
    waitFor(() => received(ids).length === 1, 30_000),
  );
}

/** A wait that fails with the end of the service's log, which says why it did not send. */
async function withLogsOf<T>(service: ServiceProcess, wait: Promise<T>): Promise<T> {
  try {
    return await wait;
  } catch (error) {
    throw new Error(`${(error as Error).message}; the service's log ends:\n${service.output().slice(-4000)}`, { cause: error });
  }
}

/** SIGTERM, and the relay's answer once the worker has begun to stop: the message in flight is sent, no other. */
async function stopMidMessage(service: ServiceProcess): Promise<void> {
  try {
    service.signal('SIGTERM');
    await service.waitForLog((l) => typeof l.msg === 'string' && l.msg.startsWith('email worker stopping'));
  } finally {
    mail.releaseReplies();
  }
}

/**
 * Right after the worker's exit: what it sent is marked delivered, what it
 * had not sent is unclaimed and due now (not in 10 minutes).
 */
async function handedBack(ids: number[]): Promise<void> {
  const exitedAt = new Date();
  const rows = await rowsOf(ids);
  const sent = new Set(received(ids));
  const unsent = rows.filter((row) => !sent.has(row.id));
  assert.equal(sent.size, 1, 'the worker finished the message in flight and sent no other');
  for (const row of rows.filter((row) => sent.has(row.id)))
    assert.ok(row.delivered_at, `outbox ${row.id} was sent and is marked delivered`);
  for (const row of unsent) {
    assert.equal(row.delivered_at, null);
    assert.equal(row.claim, null, `outbox ${row.id} is no longer claimed`);
    assert.ok(
      row.next_attempt_at <= exitedAt,
      `outbox ${row.id} is due at once, not at the end of the lease (${row.next_attempt_at.toISOString()})`,
    );
  }
}

/** Every message of the batch delivered by now, each received exactly once. */
async function deliveredOnce(ids: number[], sender: ServiceProcess) {
  await withLogsOf(
    sender,
    waitFor(async () => (await rowsOf(ids)).every((row) => row.delivered_at), 30_000),
  );
  assert.deepEqual(
    [...receptions(ids)].filter(([, n]) => n !== 1),
    [],
    'each message was received exactly once',
  );
}

async function exitsCleanly(service: ServiceProcess) {
  const { code } = await service.exited;
  assert.equal(code, 0, service.output().slice(-3000));
  assert.ok(
    service.logs().some((l) => l.msg === 'shutdown complete' && l.exit_code === 0),
    service.output().slice(-3000),
  );
}

test('SIGTERM to the API mid-batch: its worker finishes the message in flight and hands back the rest, which `npm run worker` then sends once each', async () => {
  const api = await startService({ databaseUrl: file.database.url, env: env() });
  let worker: ServiceProcess | null = null;
  try {
    const ids = await enqueue('api');
    await firstMessageInFlight(ids, api);
    await stopMidMessage(api);
    await exitsCleanly(api);
    await handedBack(ids);

    worker = await startService({ databaseUrl: file.database.url, entry: 'worker.ts', viaNpm: true, waitForReady: false, env: env() });
    await deliveredOnce(ids, worker); // the API is gone: the worker sent what was handed back
  } finally {
    await api.stop();
    if (worker) assert.equal((await worker.stop()).code, 0, worker.output().slice(-3000));
  }
});

test('SIGTERM to the process `npm run worker` launched, mid-batch: it hands back the rest and exits 0 (npm too); the API sends them once each', async () => {
  const worker = await startService({ databaseUrl: file.database.url, entry: 'worker.ts', viaNpm: true, waitForReady: false, env: env() });
  let api: ServiceProcess | null = null;
  try {
    await worker.waitForLog((l) => l.msg === 'email worker and pruner started');
    const ids = await enqueue('worker');
    await firstMessageInFlight(ids, worker);
    const node = worker.servicePid();
    await stopMidMessage(worker);
    await exitsCleanly(worker);
    assert.throws(() => process.kill(node, 0), 'the worker itself has exited, not only npm');
    await handedBack(ids);

    api = await startService({ databaseUrl: file.database.url, env: env() });
    await deliveredOnce(ids, api);
  } finally {
    await worker.stop();
    await api?.stop();
  }
});
