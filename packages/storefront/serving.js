/**
 * Run first by `node build` (the build's index.js): marks the release it serves (`.serving/<pid>` in it)
 * while the process lives, as the service does (src/storefront/serving-marker.ts), so a build made
 * meanwhile does not prune it (scripts/storefront-releases.ts). svelte.config.js copies it into the build.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';

const marker = new URL(`.serving/${process.pid}`, import.meta.url);
try {
  mkdirSync(new URL('.serving/', import.meta.url), { recursive: true });
  writeFileSync(marker, '');
  process.on('exit', () => rmSync(marker, { force: true }));
} catch (error) {
  console.warn(`storefront release not marked as served (${String(error)}): a build made in place may prune it`);
}
