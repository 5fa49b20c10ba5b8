import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { TestApp } from '../../../test/helpers/app.js';
import { PASSWORD, signInAs } from '../../../test/helpers/factories.js';
import { tokenFrom, waitFor } from '../../../test/helpers/mail.js';
import { createCommerceClient, type CommerceClientOptions } from '../src/index.js';

/** Helpers for the client's tests, which run against the real service (started by the service's test helper). */

/** A client of the test server; the service's public URLs (upload endpoints) name PUBLIC_BASE_URL, so requests there are sent to the test server. */
export function clientOf(t: TestApp, options: Partial<CommerceClientOptions> = {}) {
  const publicBase = new URL(t.config.publicBaseUrl).origin;
  const inner = options.fetch ?? globalThis.fetch;
  const fetch: typeof globalThis.fetch = (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    return inner(url.startsWith(publicBase) ? t.baseUrl + url.slice(publicBase.length) : input, init);
  };
  return createCommerceClient({ baseUrl: t.baseUrl, retryDelay: 10, ...options, fetch });
}

/** A signed-in client of an administrator with `role` (the account is made in the database, as `npm run admin:create` does). */
export async function staffClient(t: TestApp, role: 'ADMIN' | 'SUPER_ADMIN' = 'ADMIN', options: Partial<CommerceClientOptions> = {}) {
  const { email } = await signInAs(t, role);
  const client = clientOf(t, options);
  await client.auth.login({ email, password: PASSWORD });
  return client;
}

/** The token of the newest verification email to `email`, read from the local mail files (DATA_DIR/mail). */
export async function verificationTokenFromMailFile(t: TestApp, email: string): Promise<string> {
  const directory = path.join(t.config.dataDir, 'mail');
  const file = await waitFor(
    () =>
      existsSync(directory) &&
      readdirSync(directory)
        .filter((name) => name.endsWith('.eml') && name.includes(email))
        .sort()
        .at(-1),
    10_000,
  );
  return tokenFrom(readFileSync(path.join(directory, file), 'utf8'));
}
