import assert from 'node:assert/strict';
import type { RunningApp } from './app.js';
import type { Client } from './client.js';
import { PASSWORD, signUp } from './factories.js';

/** Shared by the session test files. */

export const SESSIONS = '/api/v1/auth/sessions';

/**
 * For an app whose tests move its clock by days with one staff client signed in at the start (a
 * webhook paused after a day, keys pruned after 24 hours): staff sessions that outlive the moves, as
 * those tests are about something else (sessions-lifetime.test.ts holds the staff limits).
 */
export const STAFF_SESSIONS_OUTLAST_THE_CLOCK = { STAFF_SESSION_IDLE_HOURS: '87600', STAFF_SESSION_TTL_HOURS: '87600' } as const;

/** Signs the same account in from a new client; the user agent tells its sessions apart. */
export async function loginFrom(app: Pick<RunningApp, 'client'>, email: string, userAgent: string): Promise<Client> {
  const client = app.client();
  const response = await client.post('/api/v1/auth/login', { email, password: PASSWORD }, { headers: { 'user-agent': userAgent } });
  assert.equal(response.status, 200, response.text);
  return client;
}

/** A user with three sessions: the sign-up one, then "device-b", then "device-c". */
export async function threeSessions(app: Pick<RunningApp, 'client' | 'clock'>) {
  const first = await signUp(app);
  app.clock.advance(1_000); // distinct created_at, so "newest first" is decided by time alone
  const b = await loginFrom(app, first.email, 'device-b');
  app.clock.advance(1_000);
  const c = await loginFrom(app, first.email, 'device-c');
  return { ...first, a: first.client, b, c };
}

/** GET /auth/sessions as `client`, which must answer 200. */
export async function listAll(client: Client, query = '') {
  const response = await client.get(`${SESSIONS}${query}`);
  assert.equal(response.status, 200, response.text);
  return response;
}

/** The public ID of the session `client` is using, read from its own list. */
export async function currentSessionId(client: Client): Promise<string> {
  const response = await listAll(client, '?limit=100');
  const current = response.body.data.filter((s: any) => s.current);
  assert.equal(current.length, 1);
  return current[0].public_id;
}
