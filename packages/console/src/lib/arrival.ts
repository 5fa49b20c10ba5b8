/**
 * Where focus goes when a screen opens. A screen moved to takes focus to its heading, so keyboard
 * and screen-reader users start reading the new screen, but only when focus was left where the
 * person chose to move (a link in the navigation or header, or a menu item) or nowhere (the link
 * that led here is gone). The first screen of a page load leaves focus where the browser put it,
 * so the skip link stays the first Tab stop; a field, or anything focused since, is never taken.
 */
let moved = false;
let chosenFrom: Element | null = null;
let lastPath = typeof window === 'undefined' ? '' : window.location.pathname;

/** For the router's history: each move, but not the router tidying the URL of the page it loaded (a replace in place). */
export function noteNavigation({ location, action }: { location: { pathname: string }; action: { type: string } }): void {
  const tidying = action.type === 'REPLACE' && location.pathname === lastPath;
  lastPath = location.pathname;
  if (tidying) return;
  moved = true;
  chosenFrom = document.activeElement;
}

/** Whether a screen that has just rendered its heading should take focus to it. */
export function shouldTakeFocus(): boolean {
  if (!moved) return false;
  const active = document.activeElement;
  if (!active || active === document.body) return true;
  if (active === chosenFrom && active.closest('nav, header')) return true;
  // Chosen from a menu, which closed and gave focus back to its button in the header.
  return Boolean(chosenFrom?.closest('[role="menu"]')) && active.closest('header') !== null;
}
