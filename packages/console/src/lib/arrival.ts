/**
 * Whether the console has moved between screens since the page loaded. A screen reached by moving
 * takes focus to its heading; the first screen of a page load leaves focus where the browser put it,
 * so the skip link stays the first Tab stop.
 */
let moved = false;

export const noteNavigation = (): void => {
  moved = true;
};

export const hasNavigated = (): boolean => moved;
