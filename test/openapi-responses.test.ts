import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from 'typebox';
import { errorResponses } from '../src/lib/schemas.js';
import { startTestApp } from './helpers/app.js';

/** The response check in startTestApp reports what the document does not say, so it can fail. */
test('a response whose status or body the OpenAPI document does not declare fails the test app at close', async () => {
  const t = await startTestApp(
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
            return { n: 1 };
          },
        });
      },
    },
  );
  assert.equal((await t.client().get('/api/v1/drift-probe')).status, 200, 'a documented answer');
  assert.equal((await t.client().get('/api/v1/drift-probe?mode=status')).status, 202);
  await assert.rejects(
    t.close(),
    /1 responses did not match the OpenAPI document:\nGET \/api\/v1\/drift-probe -> 202: status not in the document/,
  );
});
