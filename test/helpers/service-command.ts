import path from 'node:path';

/**
 * Node's arguments to run a service entry point (`main.ts`, `worker.ts`) as a process: the module
 * the test runner compiled from it for this run (scripts/test/bundle.ts, named by
 * TEST_SERVICE_MODULES), or else its source through tsx. Both run the same source; the compiled
 * one starts in about half the CPU time.
 */
export function serviceCommand(entry: 'main.ts' | 'worker.ts'): string[] {
  const compiled = process.env.TEST_SERVICE_MODULES;
  return compiled
    ? ['--enable-source-maps', path.join(compiled, entry.replace(/\.ts$/, '.mjs'))]
    : ['--import', 'tsx', path.join('src', entry)];
}
