/**
 * Search-param parsers for the router: every list keeps its filters, sort and page in the URL,
 * so a view can be bookmarked and shared. Unknown or malformed values fall back to defaults
 * instead of breaking the screen.
 */

/**
 * The router reads and writes search params as the text they are. Its default reads each value as
 * JSON, so a link or a typed address with `?q=12E45678` (a SKU, a hex code) searched for
 * `Infinity`, and `?q=1.50` for `1.5`; every param here is a scalar its parser reads from text.
 * A value that is itself a quoted string is written as JSON so it reads back as written (and so
 * links the JSON form made, `?q=%22mug%22`, still read as `mug`).
 */
const QUOTED = /^".*"$/s;

export function parseSearchText(query: string): Record<string, string> {
  const search: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(query)) {
    search[key] = value;
    if (!QUOTED.test(value)) continue;
    try {
      const unquoted: unknown = JSON.parse(value);
      if (typeof unquoted === 'string') search[key] = unquoted;
    } catch {
      // not JSON after all: the text as it is
    }
  }
  return search;
}

export function stringifySearchText(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined || value === null) continue;
    const written = String(value);
    params.set(key, QUOTED.test(written) ? JSON.stringify(written) : written);
  }
  const query = params.toString();
  return query ? `?${query}` : '';
}

export function page(value: unknown): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 100_000 ? n : 1;
}

/** A page in the URL, or nothing when there is none: a list opens on page 1 without saying so. */
export function pageOrNone(value: unknown): number | undefined {
  return value === undefined ? undefined : page(value);
}

export function text(value: unknown, max = 200): string | undefined {
  if (typeof value === 'number') value = String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed.slice(0, max);
}

export function oneOf<const T extends string>(value: unknown, options: readonly T[]): T | undefined {
  return typeof value === 'string' && (options as readonly string[]).includes(value) ? (value as T) : undefined;
}

export function date(value: unknown): string | undefined {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;
}

export function flag(value: unknown): boolean | undefined {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return undefined;
}

/** `T` with every key that may be undefined or null made optional; the others stay required. */
export type Compacted<T> = { [K in keyof T as undefined extends T[K] ? never : null extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : null extends T[K] ? K : never]?: Exclude<T[K], null | undefined>;
};

/**
 * Drops empty values, so URLs stay short and a cleared filter disappears from the query string.
 * Keys that are always set (a page, a default sort) stay required in the type, so a list query
 * built with it type-checks against the API's parameters as it is, with no cast.
 */
export function compact<T extends Record<string, unknown>>(values: T): Compacted<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== '' && v !== null)) as Compacted<T>;
}

/**
 * A calendar day as the inclusive start / exclusive end instant the API expects. Days are UTC days,
 * as the dashboard's figures and the P&L count them, so a list opened from a figure shows the orders
 * that figure counted whatever the browser's time zone; the date inputs say "(UTC)".
 */
export function dayStart(day: string): string {
  return new Date(`${day}T00:00:00Z`).toISOString();
}
export function dayAfter(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();
}

/** An instant in the URL (`since` of a dashboard period): an ISO date-time, else nothing. */
export function instant(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(value)) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** The later of two ISO instants, either of which may be absent. */
const later = (a: string | undefined, b: string | undefined) => (a && b ? (a > b ? a : b) : (a ?? b));

/**
 * The instants a list filtered by date asks the API for: the date fields' UTC days (both inclusive)
 * and a dashboard period's exact start (`since`), whichever starts later; the end is exclusive.
 */
export function instantRange(search: { from?: string | undefined; to?: string | undefined; since?: string | undefined }): {
  from: string | undefined;
  to: string | undefined;
} {
  return { from: later(search.since, search.from ? dayStart(search.from) : undefined), to: search.to ? dayAfter(search.to) : undefined };
}
