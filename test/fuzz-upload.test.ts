import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { credentials, local } from './helpers/media.js';
import { useApp } from './helpers/use-app.js';
import { FUZZ_ENV, RUNS, SEED, assertPassed, tableFingerprints, statusTally } from './fuzz/judge.js';
import { formMutation, uploadForm } from './fuzz/upload-forms.js';

/**
 * The built-in image host's upload takes a multipart form, not JSON, so the
 * walk over the OpenAPI document (fuzz.test.ts) sends it nothing useful. Here
 * each run asks for fresh credentials, builds the form an ImageKit client
 * would send and spoils one part of it (test/fuzz/upload-forms.ts). It holds
 * when the answer is never a 5xx, every 4xx is the error envelope, and a
 * refused upload wrote no row. FUZZ_SEED and FUZZ_RUNS apply here too.
 */
const t = useApp({ env: FUZZ_ENV, as: ['SUPER_ADMIN'] });
const tally = statusTally();

describe('fuzzing the multipart upload of the built-in image host', () => {
  test('POST /media/api/v1/files/upload with spoiled forms', async () => {
    const fingerprints = await tableFingerprints(t.db);
    const details = await fc.check(
      fc.asyncProperty(formMutation, async (m) => {
        const creds = await credentials(t.superAdmin);
        const { body, headers } = uploadForm(creds, m);
        const shown = `${JSON.stringify(m, (_, v) => (typeof v === 'string' && v.length > 200 ? `${v.slice(0, 200)}...` : v instanceof Uint8Array ? `${v.length} bytes` : v))}`;
        const before = await fingerprints();
        const response = await fetch(local(t, creds.uploadEndpoint), { method: 'POST', body, headers });
        const text = await response.text();
        tally(response.status);
        assert.ok(response.status < 500, `${response.status} for ${shown}: ${text.slice(0, 300)}`);
        if (response.status >= 400) {
          const parsed = JSON.parse(text);
          assert.ok(
            parsed.success === false && typeof parsed.error?.code === 'string' && typeof parsed.request_id === 'string',
            `not the envelope for ${shown}: ${text.slice(0, 300)}`,
          );
          assert.deepEqual(
            await fingerprints(),
            before,
            `a refused upload (${response.status} ${parsed.error.code}) changed rows: ${shown}`,
          );
        }
      }),
      { seed: SEED, numRuns: RUNS * 2, endOnFailure: true },
    );
    assertPassed(details);
  });
});
