import { randomBytes } from 'node:crypto';
import type { Role } from '../../src/db/schema.js';
import { issueAccountToken } from '../../src/identity/account-tokens.js';
import { hashPassword } from '../../src/lib/password.js';
import { newPublicId } from '../../src/lib/ids.js';
import type { TestApp } from './app.js';
import type { Client } from './client.js';

export const PASSWORD = 'Correct-Horse-9';

const unique = () => randomBytes(5).toString('hex');

export const uniqueEmail = (label = 'user') => `${label}-${unique()}@example.test`;

/** The fields of a User as the API shows it, sorted. */
export const USER_KEYS = [
  'created_at',
  'email',
  'email_verified',
  'first_name',
  'last_name',
  'phone_number',
  'public_id',
  'role',
  'status',
  'updated_at',
];

/** Registers a customer over HTTP; the returned client holds its session. */
export async function signUp(t: Pick<TestApp, 'client'>, overrides: Record<string, unknown> = {}) {
  const client = t.client();
  const body = { email: uniqueEmail(), password: PASSWORD, first_name: 'Ada', last_name: 'Lovelace', ...overrides };
  const response = await client.post('/api/v1/auth/register', body);
  if (response.status !== 201) throw new Error(`sign-up failed: ${response.status} ${response.text}`);
  return { client, user: response.body.data, email: String(body.email), password: String(body.password) };
}

/**
 * Verifies an account's email through the API, with a verification token minted as a registration or
 * a resend mints one (the emailed one may be delivered already, and its payload then holds no token).
 */
export async function verifyEmail(t: Pick<TestApp, 'client' | 'db'>, email: string): Promise<void> {
  const user = await t.db.selectFrom('users').select('id').where('email', '=', email.toLowerCase()).executeTakeFirstOrThrow();
  const token = await issueAccountToken(t.db, { userId: user.id, purpose: 'VERIFY_EMAIL', now: new Date() });
  const response = await t.client().post('/api/v1/auth/email-verification/verify', { token });
  if (response.status !== 200) throw new Error(`verification failed: ${response.status} ${response.text}`);
}

/** POST /auth/login from a new client (anonymous until it succeeds). */
export const login = (t: Pick<TestApp, 'client'>, email: string, password = PASSWORD) =>
  t.client().post('/api/v1/auth/login', { email, password });

/** Creates an account of any role straight in the database (as the CLI does) and signs it in over HTTP. */
export async function signInAs(t: Pick<TestApp, 'client' | 'db'> & { config: Pick<TestApp['config'], 'passwordHashCost'> }, role: Role) {
  const email = uniqueEmail(role.toLowerCase());
  await t.db
    .insertInto('users')
    .values({
      public_id: newPublicId('usr'),
      email,
      password_hash: await hashPassword(PASSWORD, t.config.passwordHashCost),
      first_name: 'Staff',
      last_name: role,
      phone_number: null,
      role,
    })
    .execute();
  const client = t.client();
  const response = await client.post('/api/v1/auth/login', { email, password: PASSWORD });
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${response.text}`);
  return { client, user: response.body.data, email };
}

export function addressInput(overrides: Record<string, unknown> = {}) {
  return {
    recipient_name: 'Ada Lovelace',
    phone_number: '+44 20 7946 0000',
    label: 'Home',
    country: 'GB',
    state: 'Greater London',
    city: 'London',
    address_1: '12 St James Square',
    address_2: null,
    zip_code: 'SW1Y 4JH',
    ...overrides,
  };
}

/** Asserts the error envelope shape and returns the error for further checks. */
export function errorOf(response: { status: number; body: any; text: string }) {
  const body = response.body;
  if (!body || body.success !== false || typeof body.error?.code !== 'string' || typeof body.request_id !== 'string') {
    throw new Error(`not an error envelope (${response.status}): ${response.text}`);
  }
  return body.error as { code: string; message: string; details?: { field: string; message: string }[] };
}

export type { Client };
