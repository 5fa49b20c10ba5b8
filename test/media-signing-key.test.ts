import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signUpload } from '../src/media/signing.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import type { Client } from './helpers/client.js';
import { signUp } from './helpers/factories.js';
import { credentials, tinyPng, upload } from './helpers/media.js';
import { createTestDatabase, type TestDatabase } from './helpers/service.js';

/**
 * Issue 13, stateless instances: MEDIA_SIGNING_KEY from the configuration is
 * the built-in image host's key. Four instances share one database: two with
 * the same key, one with another key, one with none (which uses the key
 * generated into the database). Upload credentials signed by one instance
 * are accepted by the instance with the same key and refused by the others.
 */
const KEY = 'same-key-on-every-instance-0123456789';
const OTHER_KEY = 'another-key-for-another-store-987654321';

let database: TestDatabase;
const instances: Record<'a' | 'b' | 'other' | 'generated', TestApp> = {} as never;

const instance = (env: Record<string, string>) => startTestApp({ EMAIL_WORKER: 'off', ...env }, { database });

before(async () => {
  database = await createTestDatabase();
  instances.a = await instance({ MEDIA_SIGNING_KEY: KEY });
  instances.b = await instance({ MEDIA_SIGNING_KEY: KEY });
  instances.other = await instance({ MEDIA_SIGNING_KEY: OTHER_KEY });
  instances.generated = await instance({});
});

after(async () => {
  for (const each of Object.values(instances)) await each.close();
  await database?.drop();
});

/** The same account's session on another instance (sessions live in the shared database). */
function sessionOn(client: Client, on: TestApp): Client {
  const moved = on.client();
  for (const [name, value] of client.cookies) moved.cookies.set(name, value);
  return moved;
}

const generatedKey = async () =>
  (await instances.a.db.selectFrom('service_secrets').select('value').where('name', '=', 'media_signing_key').executeTakeFirst())?.value;

test('credentials are signed with MEDIA_SIGNING_KEY; an instance with the same key accepts them, one with another key refuses them', async () => {
  const { a, b, other, generated } = instances;
  const { client } = await signUp(a);

  const creds = await credentials(client);
  assert.equal(creds.signature, signUpload(KEY, creds.token, creds.expire), 'signed with the configured key');
  assert.equal(await generatedKey(), undefined, 'no key was generated into the database');

  // A refused signature leaves the token unused, so the same credentials are tried everywhere.
  for (const [name, refusing] of [
    ['another key', other],
    ['the generated key', generated],
  ] as const) {
    const refused = await upload(refusing, creds, tinyPng());
    assert.equal(refused.status, 403, `${name}: ${JSON.stringify(refused.body)}`);
    assert.match(refused.body.message, /invalid signature/);
  }
  const accepted = await upload(b, creds, tinyPng());
  assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
  const served = await fetch(a.baseUrl + new URL(accepted.body.url).pathname);
  assert.equal(served.status, 200, 'the file is served by the instance that signed for it');

  // And the other way round: signed by b, accepted by a.
  const fromB = await credentials(sessionOn(client, b));
  assert.equal(fromB.signature, signUpload(KEY, fromB.token, fromB.expire));
  assert.equal((await upload(a, fromB, tinyPng())).status, 200);

  // The instance with another key signs with that key and accepts its own credentials, not a's.
  const fromOther = await credentials(sessionOn(client, other));
  assert.equal(fromOther.signature, signUpload(OTHER_KEY, fromOther.token, fromOther.expire));
  assert.equal((await upload(a, fromOther, tinyPng())).status, 403);
  assert.equal((await upload(other, fromOther, tinyPng())).status, 200);

  // Without MEDIA_SIGNING_KEY the key generated into the database is used, and only by instances without one.
  const fromGenerated = await credentials(sessionOn(client, generated));
  const stored = await generatedKey();
  assert.ok(stored && stored !== KEY && stored !== OTHER_KEY);
  assert.equal(fromGenerated.signature, signUpload(stored, fromGenerated.token, fromGenerated.expire));
  assert.equal((await upload(b, fromGenerated, tinyPng())).status, 403);
  assert.equal((await upload(generated, fromGenerated, tinyPng())).status, 200);
});
