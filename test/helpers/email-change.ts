import assert from 'node:assert/strict';
import type { RunningApp } from './app.js';
import type { Client } from './client.js';
import { PASSWORD } from './factories.js';
import { subjectOf, tokenFrom, waitFor, type MailCatcher } from './mail.js';

/** Shared by the email-change test files. */

export const START = '/api/v1/users/me/email';
export const VERIFY = '/api/v1/users/me/email/verify';
export const CONFIRM_SUBJECT = 'Confirm your new email address';
export const NOTICE_SUBJECT = 'Your email address was changed';

/** The messages to `address` with that subject, as received so far. */
export const withSubject = (mail: MailCatcher, address: string, subject: string) =>
  mail.to(address).filter((m) => subjectOf(m.raw) === subject);

/** Starts a change to `newEmail` (expects 202) and returns the token mailed to it. */
export async function startChange(t: { readonly mail: MailCatcher }, client: Client, newEmail: string): Promise<string> {
  const seen = withSubject(t.mail, newEmail, CONFIRM_SUBJECT).length;
  const response = await client.post(START, { new_email: newEmail, password: PASSWORD });
  assert.equal(response.status, 202, response.text);
  const message = await waitFor(() => withSubject(t.mail, newEmail, CONFIRM_SUBJECT)[seen]);
  return tokenFrom(message.raw);
}

/** The account's email address as stored. */
export const emailOf = async (t: Pick<RunningApp, 'db'>, publicId: string) =>
  (await t.db.selectFrom('users').select('email').where('public_id', '=', publicId).executeTakeFirstOrThrow()).email;
