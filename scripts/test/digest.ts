/**
 * Why a file failed, in a few lines for the end of a run. The file's whole output is printed where
 * it ended, but a CI log is often read from its tail, or kept only in part: the summary repeats
 * each failing test's name, its error and where in the test it was thrown, and the page a browser
 * test was on.
 */
import { stripVTControlCharacters } from 'node:util';

/** A stack frame outside the project's own code (Node's internals, a dependency). */
const FOREIGN_FRAME = /^\s+at .*(node:|node_modules|<anonymous>$)/;
const FRAME = /^\s+at /;
/** The fields node's assertion errors print after the message (`actual` and `expected` are in the message). */
const ERROR_FIELDS = /^\s+(generatedMessage|code|actual|expected|operator|failureType|cause):|^\s*}$/;
const PAGE_AT_FAILURE = /page at failure: /;
/** A line the spec reporter writes of its own: a test's mark, a suite's, a diagnostic. */
const REPORTER_LINE = /^\s*(✖|✔|▶|ℹ|﹣) /;

export function failureDigest(output: string, maxLines = 40): string[] {
  const lines = stripVTControlCharacters(output).split('\n');
  const start = lines.findLastIndex((line) => line.startsWith('✖ failing tests:'));
  // No list of failing tests: the process died or was killed; its last words say how.
  if (start === -1) return cap(lines.filter((line) => line.trim() !== '').slice(-15), maxLines);
  const kept: string[] = [];
  let frameKept = false;
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '' || ERROR_FIELDS.test(line) || FOREIGN_FRAME.test(line)) continue;
    if (line.startsWith('test at ')) frameKept = false;
    if (FRAME.test(line)) {
      // The first frame in the project's code is where the test was when it failed; the rest is how it got there.
      if (frameKept) continue;
      frameKept = true;
    }
    kept.push(line);
  }
  const page = lines.findIndex((line) => PAGE_AT_FAILURE.test(line));
  if (page !== -1) {
    // The diagnostic and the page's text under it, up to the reporter's next line of its own.
    const end = lines.findIndex((line, i) => i > page && (REPORTER_LINE.test(line) || FRAME.test(line)));
    kept.push(...lines.slice(page, Math.min(page + 8, end === -1 ? lines.length : end)).filter((line) => line.trim() !== ''));
  }
  return cap(kept, maxLines);
}

function cap(lines: string[], maxLines: number): string[] {
  if (lines.length <= maxLines) return lines;
  return [...lines.slice(0, maxLines), `… ${lines.length - maxLines} more lines in the file's output above`];
}
