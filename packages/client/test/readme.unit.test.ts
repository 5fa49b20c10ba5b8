import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

/**
 * The README's examples are files in examples/ (compiled by `npm run
 * typecheck`, and against the packed package in package.test.ts). Here:
 * every TypeScript block of the README is either the copy of one, or marked
 * as signatures that are not meant to compile, so an example cannot be
 * edited, or added, in the README alone.
 */
const root = new URL('../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');

/** The part of an example the README shows: between `// #region readme` and `// #endregion`, else all of it. */
function shownPart(file: string): string {
  const text = readFileSync(new URL(file, root), 'utf8');
  const region = /\/\/ #region readme\n([\s\S]*?)\/\/ #endregion/.exec(text);
  return (region ? region[1]! : text).replace(/\n+$/, '');
}

/** Each ```ts or ```tsx block with the marker above it. */
function blocks() {
  const found: { marker: string | undefined; code: string; line: number }[] = [];
  const pattern = /(?:<!--\s*(.*?)\s*-->\n)?```tsx?\n([\s\S]*?)\n```/g;
  for (const match of readme.matchAll(pattern)) {
    found.push({ marker: match[1], code: match[2]!, line: readme.slice(0, match.index).split('\n').length });
  }
  return found;
}

test("every TypeScript block of the README is an example file's copy, or marked as signatures", () => {
  const all = blocks();
  assert.ok(all.length >= 10, `${all.length} blocks found`);
  for (const { marker, code, line } of all) {
    const example = /^example: (examples\/[\w-]+\.tsx?)$/.exec(marker ?? '');
    if (example) {
      assert.equal(
        code,
        shownPart(example[1]!),
        `README.md line ${line} differs from ${example[1]}: copy the file's readme region into the README`,
      );
    } else {
      assert.equal(
        marker,
        'signatures: not compiled',
        `README.md line ${line}: mark the block <!-- example: examples/<file> --> (and add the file) or <!-- signatures: not compiled -->`,
      );
    }
  }
});

test('every example file is shown in the README', () => {
  const shown = new Set(blocks().map((b) => /^example: (.*)$/.exec(b.marker ?? '')?.[1]));
  const files = readdirSync(new URL('examples/', root)).filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.d.ts'));
  assert.ok(files.length >= 6);
  for (const name of files) assert.ok(shown.has(`examples/${name}`), `examples/${name} is not in the README`);
});
