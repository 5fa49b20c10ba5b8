import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { errorResponses } from '../src/lib/schemas.js';
import { startTestApp } from './helpers/app.js';
import { sellableVariant } from './helpers/commerce.js';
import { signInAs } from './helpers/factories.js';

/**
 * A test app with one documented probe route, `GET /api/v1/drift-probe` (200 `{ n: integer }`), that
 * answers as documented, or with a status (`?mode=status`), a JSON text body (`text`) or a content
 * type (`plain`) the document does not declare.
 */
const startProbeApp = () =>
  startTestApp(
    {},
    {
      setup: (app) => {
        app.get('/api/v1/drift-probe', {
          config: { access: 'public' },
          schema: { summary: 'Probe', response: { 200: Type.Object({ n: Type.Integer() }), ...errorResponses() } },
          handler: async (request, reply) => {
            const mode = (request.query as { mode?: string }).mode;
            // A status the schema does not declare (the cast is the point: the types would refuse it).
            if (mode === 'status') return reply.code(202 as 200).send({ n: 1 });
            // The bytes, not the serializer's output, as the storefront sends its stored documents.
            if (mode === 'text') return reply.type('application/json').send('{"n":"one"}');
            if (mode === 'plain') return reply.type('text/plain').send('one');
            return { n: 1 };
          },
        });
      },
    },
  );

/** The response check in startTestApp reports what the document does not say, so it can fail. */
test('a response whose status or body the OpenAPI document does not declare fails the test app at close', async () => {
  const t = await startProbeApp();
  assert.equal((await t.client().get('/api/v1/drift-probe')).status, 200, 'a documented answer');
  assert.equal((await t.client().get('/api/v1/drift-probe?mode=status')).status, 202);
  await assert.rejects(
    t.close(),
    /1 responses did not match the OpenAPI document:\nGET \/api\/v1\/drift-probe -> 202: status not in the document/,
  );
});

test('a body that breaks its schema, JSON text sent past the serializer included, and an undeclared content type fail too', async () => {
  const t = await startProbeApp();
  assert.equal((await t.client().get('/api/v1/drift-probe?mode=text')).status, 200);
  assert.equal((await t.client().get('/api/v1/drift-probe?mode=plain')).status, 200);

  let problems: string;
  try {
    // A real storefront route whose stored document drifted from the Product schema.
    const admin = await signInAs(t, 'ADMIN');
    const { productId } = await sellableVariant(admin.client, { name: 'Drifted' });
    const drifted = await sql`
      UPDATE product_documents SET document = jsonb_set(document::jsonb, '{name}', '7')::json
      WHERE product_id = (SELECT id FROM products WHERE public_id = ${productId})`.execute(t.db);
    assert.equal(drifted.numAffectedRows, 1n);
    assert.equal((await t.client().get(`/api/v1/products/${productId}`)).status, 200);
  } finally {
    // Closing reports what did not match (and closes the app even when a step above failed).
    problems = await t.close().then(
      () => '',
      (error: Error) => error.message,
    );
  }
  assert.match(problems, /^3 responses did not match the OpenAPI document:/);
  assert.match(problems, /GET \/api\/v1\/drift-probe -> 200: body\/n must be integer in \{"n":"one"\}/);
  assert.match(problems, /GET \/api\/v1\/drift-probe -> 200: content type text\/plain not declared \(application\/json\)/);
  assert.match(problems, /GET \/api\/v1\/products\/\{product_public_id\} -> 200: body\/data\/name must be string/);
});
