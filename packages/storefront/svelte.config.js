import { copyFileSync, renameSync, writeFileSync } from 'node:fs';
import node from '@sveltejs/adapter-node';

/**
 * One build, two ways to run it:
 * - `node build` (adapter-node's server) runs the storefront as its own process against COMMERCE_API_URL;
 *   the adapter's variables (PORT, HOST, ORIGIN, ...) are read with the SHOP_ prefix, apart from the service's.
 * - The service mounts it at `/` in its own process (src/storefront/routes.ts) from build/mount: SvelteKit's
 *   server and manifest as they are, so the service decides each request's origin and the shopper's address
 *   with its own trust-proxy rules (adapter-node's handler fixes both from environment variables).
 * The server code has every dependency bundled in (vite.config.ts; SvelteKit is a development dependency,
 * which adapter-node bundles too), so build/ needs no node_modules.
 */

/** @type {import('@sveltejs/kit').Adapter} */
const adapter = {
  name: 'commerce-storefront',
  async adapt(builder) {
    // A release directory when scripts/storefront-build.ts builds (it then points `build` at it), else `build`.
    const out = process.env.STOREFRONT_BUILD_OUT ?? 'build';
    await node({ out, precompress: true, envPrefix: 'SHOP_' }).adapt(builder);
    // `node build` runs index.js: serving.js first (it marks the release as served), then adapter-node's server (its exports kept).
    // (Its source map stays index.js.map, which start.js names.)
    renameSync(`${out}/index.js`, `${out}/start.js`);
    copyFileSync('serving.js', `${out}/serving.js`);
    writeFileSync(`${out}/index.js`, "import './serving.js';\nexport * from './start.js';\n");
    const mount = `${out}/mount`;
    builder.writeServer(mount);
    writeFileSync(`${mount}/manifest.js`, `export const manifest = ${builder.generateManifest({ relativePath: '.' })};\n`);
  },
};

/** @type {import('@sveltejs/kit').Config} */
export default {
  kit: {
    adapter,
    alias: { '@commerce/client': '../client/src/index.ts' },
    // Pages carry their CSS inline: no render-blocking stylesheet request on a phone's first visit.
    inlineStyleThreshold: 40_000,
    // Scripts only from this origin, SvelteKit's inline bootstrap by its hash (not a nonce: a page kept
    // in the micro-cache must not carry a value meant to be used once); images also from any https host
    // (ImageKit); photo uploads may go to ImageKit's endpoint. Svelte sets style attributes, hence
    // 'unsafe-inline' for styles (no script runs from them).
    csp: {
      mode: 'hash',
      directives: {
        'default-src': ['self'],
        'script-src': ['self'],
        'style-src': ['self', 'unsafe-inline'],
        'img-src': ['self', 'data:', 'blob:', 'https:'],
        'connect-src': ['self', 'https://upload.imagekit.io'],
        'font-src': ['self'],
        'form-action': ['self'],
        'frame-ancestors': ['none'],
        'base-uri': ['self'],
        'object-src': ['none'],
      },
    },
    version: { pollInterval: 0 },
  },
};
