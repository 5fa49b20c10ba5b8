/**
 * What the builds share (scripts/build.ts, console-build.ts, storefront-build.ts): whether an output
 * is older than its sources, and a build step that skips what is fresh and, in a production install
 * without the build tools, uses the build shipped with the deploy.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function newest(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(entry).map((name) => newest(path.join(entry, name))));
}

/** `output` is missing or older than the newest file under `sources`. */
export function isStale(output: string, sources: readonly string[]): boolean {
  return !existsSync(output) || statSync(output).mtimeMs < Math.max(...sources.map(newest));
}

export interface Step {
  name: string;
  stale: () => boolean;
  build: () => Promise<void>;
  /** A file the build must have left when its tools are missing, and what to say when it has not. */
  required?: { file: string; otherwise: string };
}

/** Builds `step` (with `ifStale`, only when it is stale), saying how long it took. */
export async function runStep(step: Step, ifStale: boolean): Promise<void> {
  if (ifStale && !step.stale()) return;
  const started = Date.now();
  try {
    await step.build();
  } catch (error) {
    // Without its build tools (a production install without dev dependencies) a build shipped with
    // the deploy is used as it is.
    const code = (error as NodeJS.ErrnoException).code;
    if (ifStale && (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND')) {
      if (step.required && !existsSync(step.required.file)) throw new Error(step.required.otherwise, { cause: error });
      console.warn(`${step.name}: build tools are not installed, using the build that is there (run \`npm run build\` where they are)`);
      return;
    }
    throw error;
  }
  console.log(`${step.name}: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** Runs `step` when the module at `moduleUrl` is the script node was started with (`--if-stale` as given). */
export function runIfMain(moduleUrl: string, step: Step): void {
  if (!process.argv[1] || path.resolve(process.argv[1]) !== fileURLToPath(moduleUrl)) return;
  runStep(step, process.argv.includes('--if-stale')).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
