/**
 * `npm run seed`: a demo store. Idempotent: accounts that exist are left as they are.
 * Accounts (password for all: Demo-Pass-1):
 *   admin@demo.store (SUPER_ADMIN), staff@demo.store (ADMIN), and ten customers
 *   customer1@demo.store ... customer10@demo.store, each with an address or two.
 * Catalog (scripts/seed-catalog.ts, seed-products.ts): 9 categories, 50 products with natural names
 * and descriptions, their sizes and colours as variants with inventory (some low, some sold out),
 * and a picture per colour drawn at seed time (seed-images.ts; no network).
 * Activity (scripts/seed-activity.ts, once): orders over four weeks in every state, a WELCOME10
 * coupon, reviews on the first products (most published, some pending, a couple with photos),
 * three months of expenses.
 */
import { newPublicId } from '../src/lib/ids.js';
import { mediaUrlEndpoint } from '../src/lib/media.js';
import { lastServedBaseUrl } from '../src/media-endpoint.js';
import type { Config } from '../src/config.js';
import { hashPassword } from '../src/lib/password.js';
import type { Role } from '../src/db/schema.js';
import { openDatabase } from './database.js';
import { seedActivity } from './seed-activity.js';
import { startSeedApi } from './seed-api.js';
import { seedCatalog } from './seed-catalog.js';
import { seedImages } from './seed-images.js';
import { picturesUnavailable } from './seed-pictures.js';

const PASSWORD = 'Demo-Pass-1';
const CITIES = [
  ['US', 'California', 'San Francisco', '94107'],
  ['US', 'New York', 'Brooklyn', '11201'],
  ['GB', 'Greater London', 'London', 'EC1A 1BB'],
  ['DE', 'Berlin', 'Berlin', '10115'],
  ['FR', 'Ile-de-France', 'Paris', '75001'],
] as const;

// Every product's picture is drawn with sharp, which may not load on every platform: said before anything is made, not halfway.
const unavailable = await picturesUnavailable();
if (unavailable) {
  console.error(
    `npm run seed draws the demo pictures with sharp, which cannot be loaded here (${unavailable}). ` +
      "Run `npm ci` again (sharp installs a binary for this platform), or seed from a machine where it loads, with DATABASE_URL naming this shop's database. Nothing was changed.",
  );
  process.exit(1);
}

const { config, db, close } = await openDatabase();

/**
 * The configuration the seed's uploads are made under: the address the service last started with
 * serves the images (src/media-endpoint.ts), which is not this command's default when the service
 * runs on another PUBLIC_BASE_URL and the seed is run without it.
 */
async function servedAddress(): Promise<Config> {
  const served = await lastServedBaseUrl(db, config);
  if (!served || served === config.publicBaseUrl) return config;
  console.log(
    `seed: pictures go under ${mediaUrlEndpoint({ ...config, publicBaseUrl: served })}, where the service last started serves them`,
  );
  return { ...config, publicBaseUrl: served };
}
try {
  const hash = await hashPassword(PASSWORD, config.passwordHashCost);
  const accounts: { email: string; role: Role; first: string; last: string }[] = [
    { email: 'admin@demo.store', role: 'SUPER_ADMIN', first: 'Grace', last: 'Hopper' },
    { email: 'staff@demo.store', role: 'ADMIN', first: 'Alan', last: 'Turing' },
    ...Array.from({ length: 10 }, (_, i) => ({
      email: `customer${i + 1}@demo.store`,
      role: 'CUSTOMER' as Role,
      first: ['Ada', 'Linus', 'Barbara', 'Ken', 'Margaret', 'Dennis', 'Frances', 'Edsger', 'Radia', 'Donald'][i]!,
      last: ['Lovelace', 'Torvalds', 'Liskov', 'Thompson', 'Hamilton', 'Ritchie', 'Allen', 'Dijkstra', 'Perlman', 'Knuth'][i]!,
    })),
  ];
  let created = 0;
  for (const [index, account] of accounts.entries()) {
    // Members for a while: the orders the seed places are spread over the last four weeks.
    const since = new Date(Date.now() - (40 + index * 3) * 86_400_000);
    await db.transaction().execute(async (trx) => {
      const user = await trx
        .insertInto('users')
        .values({
          public_id: newPublicId('usr'),
          email: account.email,
          password_hash: hash,
          first_name: account.first,
          last_name: account.last,
          phone_number: null,
          role: account.role,
          email_verified_at: since,
          created_at: since,
          updated_at: since,
        })
        .onConflict((oc) => oc.column('email').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!user || account.role !== 'CUSTOMER') return;
      created++;
      const addressCount = 1 + (index % 2);
      for (let n = 0; n < addressCount; n++) {
        const [country, state, city, zip] = CITIES[(index + n) % CITIES.length]!;
        await trx
          .insertInto('addresses')
          .values({
            public_id: newPublicId('adr'),
            user_id: user.id,
            recipient_name: `${account.first} ${account.last}`,
            phone_number: `+1555000${String(index).padStart(4, '0')}`,
            label: n === 0 ? 'Home' : 'Office',
            country,
            state,
            city,
            address_1: `${10 + index} Demo Street`,
            address_2: null,
            zip_code: zip,
            is_default_shipping: n === 0,
            is_default_billing: n === 0,
          })
          .execute();
      }
    });
  }
  const products = await seedCatalog(db);
  const served = await servedAddress();
  const api = await startSeedApi(served, db);
  let pictured = 0;
  let activity: Awaited<ReturnType<typeof seedActivity>> = null;
  try {
    // Pictures are drawn and uploaded to the service's own image host; with ImageKit configured that would need the network.
    if (!config.imagekit) pictured = await seedImages(db, await api.signedIn('admin@demo.store', PASSWORD));
    else console.warn('seed: ImageKit is configured, so the demo products get no pictures (they are drawn for the built-in image host)');
    activity = await seedActivity(api, db, PASSWORD);
  } finally {
    await api.close();
  }
  const orders = activity ? `, ${activity.orders} orders and ${activity.reviews} reviews` : '';
  console.log(
    `seeded ${created} new customers, ${products} products (${pictured} pictured)${orders}; ` +
      `the shop is at ${served.publicBaseUrl}/, the console at ${served.publicBaseUrl}/admin: sign in as admin@demo.store / ${PASSWORD}`,
  );
} finally {
  await close();
}
