/**
 * Each test file compiled ahead of the run into one JavaScript module (esbuild), so the file's
 * process starts on plain Node. Under `--import tsx` every process paid about 1.5 CPU-seconds
 * before its first test: the loader's thread answering a resolve and a load for each of the
 * hundreds of modules a test imports. One esbuild build makes every file's bundle in a few
 * seconds.
 *
 * What stays as it was under tsx:
 * - Packages from node_modules are left as imports (external) and resolved by Node from the
 *   bundle's place, so a package keeps one instance and its own `exports` choice. The bundles are
 *   written under node_modules/.cache, inside the repository, where Node finds the same packages.
 * - The workspace packages (@commerce/*) are compiled in from their TypeScript sources, as the
 *   `@commerce/source` condition gave them to tsx.
 * - `import.meta.url`, `dirname` and `filename` keep naming the source file that wrote them (a
 *   helper finding the repository root from its own place, a test reading a fixture beside it).
 * - Stack traces point at the TypeScript (source maps, with Node's --enable-source-maps).
 *
 * Files that share a process (groups.ts) are compiled into one module that runs each inside a
 * top-level suite named after it. The suite's callback requires the file, which esbuild turns
 * into a synchronous call of the file's compiled body, so the file's top-level `test`, `before`
 * and `after` calls land in its suite (node:test finds the suite being built from the call's
 * async context, which an `await import()` would lose).
 */
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import type { TestRun } from './groups.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const BUNDLES = path.join(ROOT, 'node_modules', '.cache', 'commerce-tests', 'bundles');

/** Bare specifiers other than the workspace's own packages: left for Node to resolve at run time. */
const packagesStayExternal: Plugin = {
  name: 'packages-stay-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@commerce/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

const GROUP = 'commerce-test-group:';

/** The modules shared processes run (`commerce-test-group:<n>`): each file of group n inside a suite of its own, in order. */
function groupEntries(groups: readonly TestRun[]): Plugin {
  return {
    name: 'test-groups',
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${GROUP}`) }, (args) => ({ path: args.path, namespace: 'test-group' }));
      build.onLoad({ filter: /.*/, namespace: 'test-group' }, (args) => ({
        contents: [
          "import { describe } from 'node:test';",
          ...groups[Number(args.path.slice(GROUP.length))]!.files.map(
            (file) => `describe(${JSON.stringify(path.relative(ROOT, file))}, () => { require(${JSON.stringify(file)}); });`,
          ),
        ].join('\n'),
        resolveDir: ROOT,
        loader: 'js',
      }));
    },
  };
}

const IMPORT_META = /\bimport\.meta\.(url|dirname|filename)\b/g;

/** Each source file's `import.meta` location fields, written as the file's own (a bundle has one location for all). */
const importMetaOfTheSource: Plugin = {
  name: 'import-meta-of-the-source',
  setup(build) {
    build.onLoad({ filter: /\.(ts|tsx|mts|js|mjs)$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.')) return undefined;
      const values = { url: pathToFileURL(args.path).href, dirname: path.dirname(args.path), filename: args.path };
      const contents = source.replace(IMPORT_META, (_, field: keyof typeof values) => JSON.stringify(values[field]));
      const loader = args.path.endsWith('.tsx') ? 'tsx' : /\.m?ts$/.test(args.path) ? 'ts' : 'js';
      return { contents, loader };
    });
  },
};

export interface TestBundles {
  /** The module to run for a run: its file's, or its group's. */
  of(run: TestRun): string;
  /** Where the service's entry points were compiled (`main.mjs`, `worker.mjs`), when asked for. */
  services: string | null;
  remove(): void;
}

/** The service's entry points that tests start as processes of their own (test/helpers/service-command.ts). */
const SERVICE_ENTRIES = ['src/main.ts', 'src/worker.ts'].map((file) => path.join(ROOT, file));

/**
 * Compiles the given runs (absolute paths) in a directory of their own, and with `services` the
 * service's entry points too: a test that starts the service as a process then saves tsx's
 * start-up cost on each of them, as the files do.
 */
export async function bundleTests(runs: readonly TestRun[], options: { services: boolean }): Promise<TestBundles> {
  const outdir = path.join(BUNDLES, String(process.pid));
  rmSync(outdir, { recursive: true, force: true });
  const entry = (file: string) => path.relative(ROOT, file).replace(/\.[cm]?tsx?$/, '');
  const alone = runs.filter((run) => run.files.length === 1).map((run) => run.files[0]!);
  const groups = runs.filter((run) => run.files.length > 1);
  const files = options.services ? [...alone, ...SERVICE_ENTRIES] : alone;
  await build({
    entryPoints: [
      ...files.map((file) => ({ in: file, out: entry(file) })),
      ...groups.map((_, index) => ({ in: `${GROUP}${index}`, out: `groups/${index}` })),
    ],
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@commerce/source'],
    // Stack traces only need the mappings; the sources are where the map says.
    sourcemap: 'linked',
    sourcesContent: false,
    jsx: 'automatic',
    logLevel: 'error',
    plugins: [groupEntries(groups), packagesStayExternal, importMetaOfTheSource],
  });
  const groupOf = new Map(groups.map((run, index) => [run, path.join(outdir, 'groups', `${index}.mjs`)]));
  return {
    of: (run) => groupOf.get(run) ?? path.join(outdir, `${entry(run.files[0]!)}.mjs`),
    services: options.services ? path.join(outdir, 'src') : null,
    remove: () => rmSync(outdir, { recursive: true, force: true }),
  };
}
