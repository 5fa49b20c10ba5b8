import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/**
 * The runtime is meant for browsers, Node 20+, Bun, Deno and edge runtimes:
 * bundled for a neutral platform it must need no Node built-in (esbuild
 * refuses to resolve one), and stay small (issue 15: under 10 KB minified
 * and gzipped, openapi-fetch included).
 */
test('the runtime bundles for a neutral platform, without Node built-ins, under 10 KB min+gz', async () => {
  const result = await build({
    entryPoints: [new URL('../src/index.ts', import.meta.url).pathname],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  const gzipped = gzipSync(code).length;
  assert.ok(gzipped < 10 * 1024, `${gzipped} bytes gzipped`);
  assert.doesNotMatch(new TextDecoder().decode(code), /\bfrom\s*"node:|require\("node:/);
});
