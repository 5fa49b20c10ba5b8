import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildOpenApiDocument } from '../../src/openapi-document.js';
import { NOT_RACED, WRITERS } from '../races/lock-order/writers.js';

const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);

async function writeRoutes(): Promise<string[]> {
  const document = (await buildOpenApiDocument()) as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations)
      .filter((method) => WRITE_METHODS.has(method))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

test('every write route is raced by the lock-order test or says why it need not be', async () => {
  const raced = new Set(WRITERS.map((writer) => writer.route));
  const missing = (await writeRoutes()).filter((route) => !raced.has(route) && !(route in NOT_RACED));
  assert.deepEqual(missing, [], 'add a writer to test/races/lock-order/writers.ts, or the route and the reason to NOT_RACED there');
});

test('the lock-order lists name only routes that exist, each once', async () => {
  const routes = new Set(await writeRoutes());
  for (const route of [...WRITERS.map((writer) => writer.route), ...Object.keys(NOT_RACED)]) {
    assert.ok(routes.has(route), `${route} is not a write route of the OpenAPI document`);
  }
  for (const route of Object.keys(NOT_RACED)) {
    assert.ok(!WRITERS.some((writer) => writer.route === route), `${route} is both raced and excused`);
  }
});
