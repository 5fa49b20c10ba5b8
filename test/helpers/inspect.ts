import { sql } from 'kysely';
import type { RunningApp } from './app.js';

/** Reading what a response did beyond its body: raw Set-Cookie lines and audit rows. */

export interface SetCookie {
  name: string;
  value: string;
  /** Attribute names lower-cased; flags (HttpOnly, Secure) map to `true`. */
  attributes: Map<string, string | true>;
}

export function setCookies(response: { headers: Headers }): SetCookie[] {
  return response.headers.getSetCookie().map((line) => {
    const [pair = '', ...rest] = line.split(';');
    const eq = pair.indexOf('=');
    const attributes = new Map<string, string | true>();
    for (const part of rest) {
      const [key = '', ...value] = part.trim().split('=');
      attributes.set(key.toLowerCase(), value.length > 0 ? value.join('=') : true);
    }
    return { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), attributes };
  });
}

/** The one Set-Cookie line for `name`, or undefined when the response did not touch that cookie. */
export function setCookie(response: { headers: Headers }, name: string): SetCookie | undefined {
  const matches = setCookies(response).filter((cookie) => cookie.name === name);
  if (matches.length > 1) throw new Error(`more than one Set-Cookie for ${name}`);
  return matches[0];
}

/** True when the Set-Cookie line deletes the cookie (empty value and an expiry in the past). */
export function isCleared(cookie: SetCookie | undefined): boolean {
  if (!cookie) return false;
  const expires = cookie.attributes.get('expires');
  const maxAge = cookie.attributes.get('max-age');
  const past =
    (typeof expires === 'string' && new Date(expires).getTime() < Date.now()) || (typeof maxAge === 'string' && Number(maxAge) <= 0);
  return cookie.value === '' && past;
}

/** Audit entries of one action, oldest first, optionally only those about one entity. */
export function auditRows(t: RunningApp, action: string, entityPublicId?: string) {
  let query = t.db.selectFrom('audit_log').selectAll().where('action', '=', action);
  if (entityPublicId !== undefined) query = query.where('entity_public_id', '=', entityPublicId);
  return query.orderBy('id').execute();
}

/** Counts every audit entry, bound to a file's app and read when called: `const auditCount = auditCounter(t)`. */
export const auditCounter = (t: Pick<RunningApp, 'db'>) => async () =>
  Number((await sql<{ n: string }>`SELECT count(*) AS n FROM audit_log`.execute(t.db)).rows[0]!.n);

/**
 * The SQL statements the app ran while `request` was answered, leaving out the background email
 * worker's and event dispatcher's (their polls land in the same log at any moment), so tests can
 * count a request's queries.
 */
export async function statementsOf<T>(
  t: { readonly queries: string[] },
  request: () => Promise<T>,
): Promise<{ response: T; statements: string[] }> {
  const before = t.queries.length;
  const response = await request();
  const statements = t.queries
    .slice(before)
    .filter((statement) => !/\b(outbox|event_deliveries|event_inbox|event_stream|event_cursors)\b/.test(statement));
  return { response, statements };
}
