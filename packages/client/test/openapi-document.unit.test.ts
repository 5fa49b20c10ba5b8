import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { compileErrors, validate } from '@readme/openapi-parser';
import { clientFiles } from '../../../scripts/client-files.js';
import { buildOpenApiDocument } from '../../../src/openapi-document.js';

/**
 * CI guards on the document the client is generated from: it is valid
 * OpenAPI 3.1 by a standard validator, and the generated files committed
 * in packages/client are what the service would generate now (no server
 * needed). A route schema changed without `npm run client:generate` fails here.
 */
test('the OpenAPI document is valid OpenAPI 3.1', async () => {
  const result = await validate(structuredClone(await buildOpenApiDocument()) as never);
  assert.ok(result.valid, result.valid ? '' : compileErrors(result));
  assert.deepEqual(result.warnings, []);
});

test('the committed client files are what the service generates now (else run `npm run client:generate`)', async () => {
  for (const [file, expected] of Object.entries(await clientFiles())) {
    const committed = readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');
    assert.ok(committed === expected, `${file} is stale: run \`npm run client:generate\` and commit the result`);
  }
});

test('query parameters with a default are optional, and bodiless writes take an optional empty body', async () => {
  const document = (await buildOpenApiDocument()) as { paths: Record<string, Record<string, any>> };
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === 'query' && parameter.schema && 'default' in parameter.schema) {
          assert.notEqual(parameter.required, true, `${method} ${path}: ${parameter.name} has a default, so it is optional`);
        }
      }
      if (['post', 'put', 'patch', 'delete'].includes(method)) assert.ok(operation.requestBody, `${method} ${path} declares its body`);
      for (const [status, response] of Object.entries<any>(operation.responses)) {
        if (Number(status) >= 400)
          assert.ok(response.content?.['application/json']?.schema, `${method} ${path} ${status}: the error envelope`);
      }
    }
  }
  assert.equal(document.paths['/api/v1/admin/orders']!.get.parameters.find((p: any) => p.name === 'page').required, false);
  assert.ok(document.paths['/media/api/v1/files/upload']!.post.requestBody.content['multipart/form-data']);
  assert.deepEqual(Object.keys(document.paths['/media/{*}']!.get.responses['200'].content).sort(), [
    'image/gif',
    'image/jpeg',
    'image/png',
    'image/webp',
  ]);
  const codes = (path: string, method: string, status: number) =>
    [document.paths[path]![method].responses[status].content['application/json'].schema]
      .flatMap((s: any) => s.oneOf ?? [s])
      .map((s: any) => s.$ref.split('_').slice(1).join('_'));
  assert.ok(codes('/api/v1/users/me/addresses', 'post', 409).includes('ADDRESS_BOOK_FULL'));
  assert.ok(codes('/api/v1/admin/inventory/{variant_public_id}/reservation', 'patch', 409).includes('RESERVATION_HELD'));
  assert.ok(codes('/api/v1/auth/email-verification/resend', 'post', 429).includes('RATE_LIMITED'));
  assert.ok(codes('/api/v1/uploads/media-auth', 'get', 429).includes('RATE_LIMITED'));
  assert.ok(codes('/api/v1/products', 'get', 400).includes('VALIDATION_ERROR'));
  assert.ok(codes('/api/v1/products', 'get', 431).includes('PAYLOAD_TOO_LARGE'));
});
