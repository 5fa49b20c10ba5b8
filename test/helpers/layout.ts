import path from 'node:path';
import type { Page } from 'playwright-core';
import { keepScreenshot, openInApp, RESULTS_DIR, settled } from './browser.js';

/** The desktop widths at which every column of every table must be in view (issue 27): a laptop, a common desktop, full HD. */
export const DESKTOP_WIDTHS = [1280, 1440, 1920] as const;

/** Opens the screen as the console's links do and waits until it has its data: the text it is known by, and nothing still loading. */
export async function openScreen(page: Page, screen: { path: string; ready: string }): Promise<void> {
  await openInApp(page, screen.path);
  await page.getByText(screen.ready, { exact: false }).first().waitFor();
  await settled(page);
}

/** How wide the page is when it is wider than the window, or null when it does not scroll sideways. */
export const pageScrollsSideways = (page: Page): Promise<string | null> =>
  page.evaluate(() => {
    const root = (globalThis as any).document.scrollingElement;
    return root.scrollWidth > root.clientWidth + 1 ? `${root.scrollWidth} px wide in ${root.clientWidth}` : null;
  });

/**
 * What is wrong with the layout of the screen on view, as a person would see it: the page scrolls
 * sideways; a table scrolls or is cut off inside its card; a cell lies outside its card; a piece of
 * user text (the console marks each with <bdi>) runs out of its card or over a button.
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  // tsx names the functions declared inside (esbuild's keepNames): the page needs its helper.
  await page.evaluate('globalThis.__name ??= (f) => f');
  return page.evaluate(() => {
    // Runs in the page: the test files are type-checked without the DOM library, so the DOM is typed loosely here.
    const doc = (globalThis as any).document;
    const view = globalThis as any;
    const problems: string[] = [];
    const short = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim().slice(0, 50);
    const root = doc.scrollingElement ?? doc.documentElement;
    if (root.scrollWidth > root.clientWidth + 1)
      problems.push(`the page scrolls sideways (${root.scrollWidth} px wide in ${root.clientWidth})`);
    const main = doc.querySelector('main');
    if (!main) return [...problems, 'no main region'];
    const cardOf = (element: any) => element.closest('.mantine-Paper-root, .mantine-Modal-content') ?? main;
    const outside = (inner: any, outer: any) => inner.right > outer.right + 1 || inner.left < outer.left - 1;

    for (const table of main.querySelectorAll('table')) {
      const name = table.getAttribute('aria-label') ?? short(table.querySelector('caption')?.textContent) ?? 'a table';
      for (let element = table.parentElement; element && element !== main; element = element.parentElement) {
        const overflow = view.getComputedStyle(element).overflowX;
        if (overflow !== 'visible' && element.scrollWidth > element.clientWidth + 1) {
          problems.push(`${name}: scrolls sideways in its card (${element.scrollWidth} px in ${element.clientWidth})`);
          break;
        }
      }
      const card = cardOf(table).getBoundingClientRect();
      for (const cell of table.querySelectorAll('th, td')) {
        if (outside(cell.getBoundingClientRect(), card)) {
          problems.push(`${name}: the cell "${short(cell.textContent)}" lies outside its card`);
          break;
        }
      }
    }

    const buttons = [...main.querySelectorAll('button, [role="button"], a.mantine-Button-root')];
    for (const text of main.querySelectorAll('bdi')) {
      const card = cardOf(text).getBoundingClientRect();
      const rects = [...text.getClientRects()];
      if (rects.some((rect: any) => outside(rect, card))) problems.push(`the text "${short(text.textContent)}" runs out of its card`);
      for (const button of buttons) {
        if (button.contains(text) || text.contains(button)) continue;
        const b = button.getBoundingClientRect();
        if (b.width === 0 || b.height === 0) continue;
        const over = rects.some((r: any) => r.left < b.right - 1 && r.right > b.left + 1 && r.top < b.bottom - 1 && r.bottom > b.top + 1);
        if (over) {
          problems.push(
            `the text "${short(text.textContent)}" runs over the button "${short(button.getAttribute('aria-label') ?? button.textContent)}"`,
          );
          break;
        }
      }
    }
    return problems;
  });
}

/** Saves what the screen looks like at this width, for a person to check (TEST_SCREENSHOTS=1). */
export async function screenshotAt(page: Page, name: string, width: number): Promise<void> {
  await keepScreenshot(page, path.join(RESULTS_DIR, `${name}-${width}.png`));
}

/**
 * Every text node on screen that holds a bidirectional control or invisible mark, and is not isolated
 * on its own: its nearest element that isolates (<bdi>, `unicode-bidi: isolate`) must hold that text
 * and nothing else, so the control cannot reorder the text of the fields around it.
 */
export async function unisolatedControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const doc = (globalThis as any).document;
    const view = globalThis as any;
    const controls = /[\u202A-\u202E\u2066-\u2069\u200B-\u200F]/;
    const walker = doc.createTreeWalker(doc.querySelector('main') ?? doc.body, 4 /* NodeFilter.SHOW_TEXT */);
    const found: string[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!controls.test(node.textContent)) continue;
      let element = node.parentElement;
      while (element && !['isolate', 'isolate-override', 'plaintext'].includes(view.getComputedStyle(element).unicodeBidi)) {
        element = element.parentElement;
      }
      if (!element || element.textContent.trim() !== node.textContent.trim()) {
        found.push(
          `${JSON.stringify(node.textContent.slice(0, 60))} in ${element ? JSON.stringify(element.textContent.slice(0, 80)) : 'no isolate'}`,
        );
      }
    }
    return found;
  });
}
