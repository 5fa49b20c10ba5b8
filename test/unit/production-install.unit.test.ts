import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

/**
 * A deploy builds where the development dependencies are installed and runs where they are not
 * (`npm ci --omit=dev`, README "Operations"). What that install leaves out is what the lockfile marks
 * `dev`: a runtime dependency that brings a build tool in as a peer (SvelteKit brought vite, svelte,
 * TypeScript and tsx) would put it on every server, and make `npm start`'s pre-step try to build there.
 */
const BUILD_TOOLS = ['tsx', 'typescript', 'vite', 'svelte', '@sveltejs/kit', '@sveltejs/adapter-node', '@vitejs/plugin-react', 'rolldown'];

test('a production install (npm ci --omit=dev) gets none of the build tools', () => {
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { dev?: boolean }> };
  for (const tool of BUILD_TOOLS) {
    // At the root or under the workspace that uses it.
    const installs = Object.entries(lock.packages).filter(
      ([where]) => where === `node_modules/${tool}` || where.endsWith(`/node_modules/${tool}`),
    );
    assert.ok(installs.length > 0, `${tool} is in the lockfile`);
    for (const [where, entry] of installs) assert.equal(entry.dev, true, `${where} would be installed by npm ci --omit=dev`);
  }
});
