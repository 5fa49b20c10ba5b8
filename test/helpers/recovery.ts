import assert from 'node:assert/strict';
import type { Client } from './client.js';
import { subjectOf, tokenFrom, waitFor, type MailCatcher } from './mail.js';

export const RESET_SUBJECT = 'Reset your password';

/** Asks for a password reset for `email` (expects 202) and returns the token from the reset email it then gets. */
export async function resetToken(t: { client(): Client; readonly mail: MailCatcher }, email: string): Promise<string> {
  const resets = () => t.mail.to(email).filter((m) => subjectOf(m.raw) === RESET_SUBJECT);
  const seen = resets().length;
  const response = await t.client().post('/api/v1/auth/password-reset', { email });
  assert.equal(response.status, 202, response.text);
  const message = await waitFor(() => resets()[seen]);
  return tokenFrom(message.raw);
}
