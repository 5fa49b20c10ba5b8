/**
 * A node:test reporter that writes one JSON object of counts (tests, pass, fail, skipped, todo,
 * cancelled; suites left out, as node's own summary does) for scripts/test/pool.ts to add up.
 * Plain JavaScript: the test runner loads reporters before any loader hook.
 */
export default async function* countReporter(source) {
  const counts = { tests: 0, pass: 0, fail: 0, skipped: 0, todo: 0, cancelled: 0 };
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { data } = event;
    if (data.details?.type === 'suite') continue;
    counts.tests += 1;
    if (data.skip) counts.skipped += 1;
    else if (data.todo) counts.todo += 1;
    else if (event.type === 'test:pass') counts.pass += 1;
    else if (data.details?.error?.failureType === 'cancelledByParent') counts.cancelled += 1;
    else counts.fail += 1;
  }
  yield `${JSON.stringify(counts)}\n`;
}
