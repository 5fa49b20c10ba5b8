import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { afterEach, describe, test } from 'node:test';
import { abortHeldUploads, credentials, heldUpload, tinyPng, upload, type UploadAnswer } from './helpers/media.js';
import { useApp } from './helpers/use-app.js';

/**
 * Issue 24, item 1: the built-in image host decides on an upload's
 * credentials before it reads the file, reads the file no further than a
 * refusal needs, and holds at most MAX_UPLOADS_IN_FLIGHT files at once. Each
 * upload here sends the form up to the first bytes of its file and holds the
 * rest back, so an answer that arrives proves the host did not wait for it.
 */
const t = useApp({ env: { MAX_UPLOADS_IN_FLIGHT: '2', RATE_LIMIT_UPLOAD: '0' }, as: ['CUSTOMER'] });

// Whatever a test asserted, the uploads it held back are cut off after it.
afterEach(abortHeldUploads);

const FIVE_MB = 5 * 1024 * 1024;
const png = tinyPng();
/** Long enough to know a 5 MB upload was not waited for, short enough for a loaded machine to answer within. */
const PROMPTLY_MS = 10_000;

/** A refusal in the error envelope with ImageKit's top-level message. */
function assertRefusal(answer: UploadAnswer, status: number, code: string, message: RegExp) {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.equal(answer.body.success, false);
  assert.equal(answer.body.error.code, code);
  assert.match(answer.body.message, message);
  assert.equal(answer.body.error.message, answer.body.message);
  assert.equal(answer.body.request_id, answer.headers['x-request-id']);
}

describe('the built-in host refuses an upload before reading its file', () => {
  test('a forged signature, a wrong public key and a used token are answered while the 5 MB file is still on its way', async () => {
    const declared = { contentLength: FIVE_MB + 2048 };
    const creds = await credentials(t.customer);
    const forged = createHmac('sha1', 'not-the-key').update(`${creds.token}${creds.expire}`).digest('hex');
    for (const [fields, message] of [
      [{ signature: forged }, /invalid signature/],
      [{ publicKey: 'public_other' }, /invalid publicKey/],
      [{ expire: String(creds.expire + 60) }, /invalid signature/],
    ] as const) {
      const held = heldUpload(t, creds, png.subarray(0, 8), { ...declared, fields });
      assertRefusal(await held.answerWithin(PROMPTLY_MS), 403, 'FORBIDDEN', message);
    }

    assert.equal((await upload(t, creds, png)).status, 200);
    const replay = heldUpload(t, creds, png.subarray(0, 8), declared);
    assertRefusal(await replay.answerWithin(PROMPTLY_MS), 403, 'FORBIDDEN', /already been used/);
  });

  test('a file part sent before the credential fields is 400 at once, naming the field it needed first', async () => {
    const held = heldUpload(t, await credentials(t.customer), png.subarray(0, 8), { fileFirst: true, contentLength: FIVE_MB });
    const answer = await held.answerWithin(PROMPTLY_MS);
    assertRefusal(answer, 400, 'VALIDATION_ERROR', /^Missing fileName parameter$/);
    assert.deepEqual(answer.body.error.details, [{ field: 'fileName', message: 'is required, before the file part' }]);
  });

  test('a file whose first bytes are not an image is 400 before the rest arrives, and its token still works', async () => {
    const creds = await credentials(t.customer);
    const held = heldUpload(t, creds, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg">'), { contentLength: FIVE_MB });
    assertRefusal(await held.answerWithin(PROMPTLY_MS), 400, 'VALIDATION_ERROR', /not a JPEG, PNG, GIF or WebP/);
    assert.equal((await upload(t, creds, png)).status, 200);
  });

  test('a body declared longer than a 5 MB file and its fields is 413 before any of it is read', async () => {
    const creds = await credentials(t.customer);
    const held = heldUpload(t, creds, png.subarray(0, 8), { contentLength: 6 * 1024 * 1024 });
    assertRefusal(await held.answerWithin(PROMPTLY_MS), 413, 'PAYLOAD_TOO_LARGE', /5 MB/);
    assert.equal((await upload(t, creds, png)).status, 200);
  });

  test('a refused upload sent whole is answered in the envelope, and the connection serves the next request', async () => {
    const creds = await credentials(t.customer);
    const big = Buffer.alloc(FIVE_MB);
    png.copy(big);
    const refused = await upload(t, creds, big, { signature: '0'.repeat(40) });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'FORBIDDEN');
    assert.equal((await upload(t, creds, png)).status, 200);
  });
});

describe('uploads in flight per process', () => {
  test('past MAX_UPLOADS_IN_FLIGHT an upload is 503 with Retry-After; the held ones finish and their slots come back', async () => {
    // Two uploads held open once their credentials pass. One that reaches the host after a probe has taken a
    // slot is refused 503 itself (it lost the race, as the host should answer it): it is replaced, and the
    // probing goes on until a probe finds both slots held by uploads still open.
    const hold = async () => {
      const upload = heldUpload(t, await credentials(t.customer), png.subarray(0, 16));
      const state = { upload, answered: null as UploadAnswer | null };
      upload.answer.then((a) => (state.answered = a)).catch(() => {});
      return state;
    };
    const held = [await hold(), await hold()];
    let busy: Awaited<ReturnType<typeof upload>> | undefined;
    const deadline = Date.now() + 2 * PROMPTLY_MS;
    while (!busy && Date.now() < deadline) {
      for (const [i, h] of held.entries()) {
        if (!h.answered) continue;
        assert.equal(h.answered.status, 503, `a held upload was answered ${h.answered.status} ${JSON.stringify(h.answered.body)}`);
        held[i] = await hold();
      }
      const probe = await upload(t, await credentials(t.customer), png);
      if (probe.status === 503 && held.every((h) => !h.answered)) busy = probe;
      else assert.ok([200, 503].includes(probe.status), JSON.stringify(probe.body));
    }
    assert.ok(busy, 'a third upload in flight was never refused while both held ones were still open');
    assert.equal(busy.body.error.code, 'SERVICE_UNAVAILABLE');
    assert.equal(busy.body.message, busy.body.error.message);
    assert.ok(Number(busy.headers.get('retry-after')) >= 1);

    const finished = await Promise.all(held.map((h) => h.upload.finish(png.subarray(16))));
    assert.deepEqual(
      finished.map((f) => f.status),
      [200, 200],
    );
    assert.ok(finished[0]!.body.size > 0);
    assert.equal((await upload(t, await credentials(t.customer), png)).status, 200);
  });
});
