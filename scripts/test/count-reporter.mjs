/**
 * A node:test reporter that writes one JSON object of counts (tests, pass, fail, skipped, todo,
 * cancelled; suites left out, as node's own summary does) for scripts/test/pool.ts to add up.
 * In a process that runs several files (scripts/test/groups.ts), each file is a top-level suite
 * named after it: `files` holds each one's counts, seconds and whether the suite itself failed
 * (a failing hook fails the suite without failing a test). Events arrive as tests end, so a
 * top-level suite's event follows every event of its tests.
 * Plain JavaScript: the test runner loads reporters before any loader hook.
 */
const empty = () => ({ tests: 0, pass: 0, fail: 0, skipped: 0, todo: 0, cancelled: 0 });

export default async function* countReporter(source) {
  const counts = empty();
  const files = {};
  let current = empty();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { data } = event;
    if (data.details?.type === 'suite') {
      if (data.nesting === 0) {
        files[data.name] = { ...current, seconds: data.details.duration_ms / 1000, suiteFailed: event.type === 'test:fail' };
        current = empty();
      }
      continue;
    }
    for (const tally of [counts, current]) {
      tally.tests += 1;
      if (data.skip) tally.skipped += 1;
      else if (data.todo) tally.todo += 1;
      else if (event.type === 'test:pass') tally.pass += 1;
      else if (data.details?.error?.failureType === 'cancelledByParent') tally.cancelled += 1;
      else tally.fail += 1;
    }
  }
  yield `${JSON.stringify({ ...counts, files })}\n`;
}
