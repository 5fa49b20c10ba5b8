import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, type TestContext } from 'node:test';
import type { Browser, BrowserContext, Locator, Page, Request } from 'playwright-core';
import { startTestApp, type TestApp } from './app.js';
import { launchBrowser } from './chromium.js';
import { PASSWORD } from './factories.js';
import { waitFor } from './mail.js';

export { launchBrowser };

/** Screenshots of console tests, and traces of failed ones (TEST_TRACE=1), for people to look at. */
export const RESULTS_DIR = path.resolve('test-results/console');

/**
 * TEST_SCREENSHOTS=1 saves a screenshot at the end of every browser test and of every screen the
 * walking tests visit (each layout width, each accessibility check), for a person checking how a
 * screen looks. Otherwise only a failing test saves one: a full-page capture costs the browser about
 * a tenth of a CPU-second, and the suite takes hundreds that nobody looks at.
 */
export const SCREENSHOTS = process.env.TEST_SCREENSHOTS === '1';

/**
 * TEST_TRACE=1 records a Playwright trace of every browser test (a DOM snapshot at each step) and
 * keeps it for a failing one. Recording is off otherwise: it cost the browser tier about a tenth
 * of its CPU time on every passing test, and a failure already prints the page's address and text
 * and saves a screenshot; rerun the failing file with TEST_TRACE=1 to step through it.
 */
export const TRACES = process.env.TEST_TRACE === '1';

/** Saves what the page looks like now to `file` when TEST_SCREENSHOTS asks for it. */
export async function keepScreenshot(page: Page, file: string): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: true });
}

/** A console test file's service and browser, started together and closed after the file's tests. */
export async function startConsole(env: Record<string, string> = {}): Promise<{ t: TestApp; browser: Browser }> {
  const [t, browser] = await Promise.all([startTestApp(env), launchBrowser()]);
  after(async () => {
    await browser.close();
    await t.close();
  });
  return { t, browser };
}

export interface Viewport {
  width: number;
  height: number;
}
export const LAPTOP: Viewport = { width: 1366, height: 860 };
export const TABLET: Viewport = { width: 820, height: 1180 };

export interface PageOptions {
  baseURL: string;
  viewport?: Viewport;
  /** The browser's time zone (IANA name), e.g. to show that day filters do not depend on it. */
  timezoneId?: string;
  /** false: a browser with JavaScript turned off (the storefront's pages must work without it). */
  javaScriptEnabled?: boolean;
  /** Where the screenshot (and, on failure, the trace) goes. */
  resultsDir: string;
  /** Added to the screenshot's and trace's name (e.g. the viewport, when a test runs at several). */
  label?: string;
  /** Console errors the test provokes on purpose (a page answered 503), which do not fail it. */
  expectedConsoleErrors?: RegExp;
}

/**
 * Runs `body` on a fresh page (its own cookies); when it fails, keeps a screenshot named after the
 * test (and its Playwright trace with TEST_TRACE=1; a screenshot whatever happens with TEST_SCREENSHOTS=1). Console
 * errors fail the test: a screen that throws or breaks CSP is broken even if the assertions pass.
 */
export async function inPage(
  browser: Browser,
  t: TestContext,
  options: PageOptions,
  body: (page: Page, context: BrowserContext) => Promise<void>,
): Promise<void> {
  mkdirSync(options.resultsDir, { recursive: true });
  const name = [t.name, options.label ?? '']
    .join('-')
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase()
    .slice(0, 150);
  const context = await browser.newContext({
    baseURL: options.baseURL,
    viewport: options.viewport ?? LAPTOP,
    reducedMotion: 'reduce',
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
    ...(options.javaScriptEnabled === false ? { javaScriptEnabled: false } : {}),
  });
  // DOM snapshots of every action, no screencast: the screencast doubled the browser tests' CPU time.
  if (TRACES) await context.tracing.start({ screenshots: false, snapshots: true });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  trackRequests(page);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (
      message.type() === 'error' &&
      !/Failed to load resource: the server responded with a status of (401|404|409|400)/.test(message.text()) &&
      !options.expectedConsoleErrors?.test(message.text())
    ) {
      problems.push(`console error: ${message.text()}`);
    }
  });
  let failed = true;
  try {
    await body(page, context);
    if (problems.length > 0) throw new Error(`The page reported errors:\n${problems.join('\n')}`);
    failed = false;
  } finally {
    // CI keeps no artifacts: a failed test says where the page was and what it showed.
    if (failed) await describePage(page, t).catch(() => undefined);
    if (failed || SCREENSHOTS) {
      await page.screenshot({ path: path.join(options.resultsDir, `${name}.png`), fullPage: true }).catch(() => undefined);
    }
    if (TRACES)
      await context.tracing.stop(failed ? { path: path.join(options.resultsDir, `${name}.trace.zip`) } : {}).catch(() => undefined);
    await context.close();
  }
}

/** Resolves once the page has laid out and painted twice since now (after a resize: resize observers have run). */
export async function afterLayout(page: Page): Promise<void> {
  // A string: it runs in the page, and the test files are type-checked without the DOM library.
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())))');
}

/** Whether all of the element is on screen now (a page that came back at an anchor shows what it should). */
export async function inView(element: Locator): Promise<boolean> {
  return element.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= el.ownerDocument.defaultView!.innerHeight;
  });
}

/**
 * Whether the keyboard comes to `element` within `timeoutMs`. A page moves the focus a tick or a frame
 * after it shows what it moved it for (the words appear, then the focus follows), so a test that saw
 * the words and looked at the focus at once could look in between: on a fast machine, now and then.
 */
export function gainsFocus(element: Locator, timeoutMs = 5_000): Promise<boolean> {
  return waitFor(() => element.evaluate((el) => el === el.ownerDocument.activeElement), timeoutMs).then(
    () => true,
    () => false,
  );
}

/** The requests each page has in flight, for settled(). */
const inFlight = new WeakMap<Page, Set<Request>>();

function trackRequests(page: Page): void {
  const pending = new Set<Request>();
  inFlight.set(page, pending);
  page.on('request', (request) => pending.add(request));
  page.on('requestfinished', (request) => pending.delete(request));
  page.on('requestfailed', (request) => pending.delete(request));
}

/**
 * Resolves once the page has no request in flight and has painted twice without starting another:
 * the screen has all its data and has drawn it. Playwright's `networkidle` guesses the same from
 * 500 ms without traffic, which a test looking at twenty screens pays twenty times over.
 */
export async function settled(page: Page, timeoutMs = 15_000): Promise<void> {
  const pending = inFlight.get(page);
  if (!pending) throw new Error('settled() needs a page opened by inPage()');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    while (pending.size > 0) {
      if (Date.now() > deadline) throw new Error(`Requests still in flight: ${[...pending].map((r) => r.url()).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // What the responses just rendered may ask for more (a screen's second query): look again after two frames.
    await afterLayout(page);
    if (pending.size === 0) return;
  }
}

/**
 * Opens `path` in the console already loaded in `page` the way its own links do (a history push the
 * router follows, no page load), and resolves once the new screen has drawn its heading and has no
 * request in flight. A test that looks at every screen would otherwise load and start the whole
 * console again for each: most of the browser's time in those tests.
 */
export async function openInApp(page: Page, target: string): Promise<void> {
  // The leaving screen's headings are marked, so the wait below sees the new screen's, not these.
  const moved = await page.evaluate(`(() => {
    if (new URL(${JSON.stringify(target)}, location.href).href === location.href) return false;
    for (const heading of document.querySelectorAll('h1')) heading.dataset.leaving = '';
    history.pushState(null, '', ${JSON.stringify(target)});
    return true;
  })()`);
  if (moved) await page.locator('h1:not([data-leaving])').first().waitFor();
  await settled(page);
}

async function describePage(page: Page, t: TestContext): Promise<void> {
  const text = (await page.locator('body').innerText({ timeout: 2_000 })).replace(/\n{2,}/g, '\n').slice(0, 2_000);
  t.diagnostic(`page at failure: ${page.url()}\n${text}`);
}

/** A console test's page: inPage at the console's viewport, results in test-results/console. */
export function inConsole(
  browser: Browser,
  t: TestContext,
  app: TestApp,
  body: (page: Page, context: BrowserContext) => Promise<void>,
  viewport: Viewport = LAPTOP,
  /** The browser's time zone (IANA name), e.g. to show that day filters do not depend on it. */
  timezoneId?: string,
  /** Console errors the test causes on purpose (requests it cuts off), which then do not fail it. */
  expectedConsoleErrors?: RegExp,
): Promise<void> {
  return inPage(
    browser,
    t,
    {
      baseURL: app.baseUrl,
      viewport,
      resultsDir: RESULTS_DIR,
      ...(timezoneId ? { timezoneId } : {}),
      ...(expectedConsoleErrors ? { expectedConsoleErrors } : {}),
    },
    body,
  );
}

/**
 * Signs in through the sign-in form, as a person would, and waits for the dashboard; or, given
 * `landing` (a console path), signs in the way a signed-out person who opened that screen's link
 * does (sign-in, then straight to the screen) and waits until the console has left sign-in for it.
 * A test that starts on one screen then pays for one load of the console, not for a load, the
 * dashboard and another load.
 */
export async function signInThroughUi(page: Page, email: string, landing?: string): Promise<void> {
  await page.goto(landing ? `/admin/sign-in?redirect=${encodeURIComponent(landing)}` : '/admin/sign-in');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (landing) await page.waitForURL((url) => !url.pathname.endsWith('/sign-in'));
  else await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; html: string; failureSummary?: string }[];
}

/**
 * The page's accessibility problems that would stop or seriously hinder someone (axe-core's
 * "serious" and "critical"), against WCAG 2.1 A and AA. axe is evaluated over the DevTools
 * protocol, so the console's CSP needs no exception for it.
 */
export async function accessibilityProblems(page: Page): Promise<AxeViolation[]> {
  const { createRequire } = await import('node:module');
  // Once per document: a screen opened in the app (openInApp) keeps the copy an earlier check loaded.
  if (!(await page.evaluate('typeof globalThis.axe === "object"'))) {
    const axe = createRequire(import.meta.url)('axe-core') as { source: string };
    await page.evaluate(axe.source);
  }
  const violations = await page.evaluate(async () => {
    // Runs in the page: `globalThis` is its window (the test files are type-checked without the DOM library).
    const page = globalThis as unknown as {
      document: unknown;
      axe: { run: (context: unknown, options: unknown) => Promise<{ violations: AxeViolation[] }> };
    };
    const result = await page.axe.run(page.document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations;
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n${v.nodes
          .slice(0, 5)
          .map((n) => `  ${n.html.slice(0, 200)}\n    ${(n.failureSummary ?? '').replaceAll('\n', ' ')}`)
          .join('\n')}`,
    )
    .join('\n');
}
