import { sql } from 'kysely';
import { csrfTokenFor } from '../src/auth/guard.js';
import type { Db } from '../src/db/database.js';
import { newPublicId } from '../src/lib/ids.js';
import { hashToken, newSecretToken } from '../src/lib/tokens.js';

/** What a load connection needs to place one order as one customer. */
export interface Shopper {
  cookie: string;
  csrf: string;
  addressId: string;
}

/**
 * Customers ready to check out: each with an address, a signed-in session
 * and a fresh cart of two lines (the first on `hot` when given, the other
 * spread over `variants`). Written with set-based SQL in seconds, so the
 * measured requests are the `POST /orders` alone, each on its own cart.
 * Sessions are stored as the service stores them (the token's SHA-256), and
 * the CSRF token is derived the way the service derives it.
 */
export async function prepareShoppers(
  db: Db,
  tag: string,
  count: number,
  passwordHash: string,
  variants: string[],
  hot: string | null,
): Promise<Shopper[]> {
  const tokens = Array.from({ length: count }, () => newSecretToken());
  const users = tokens.map(() => newPublicId('usr'));
  const addresses = tokens.map(() => newPublicId('adr'));
  const first = tokens.map((_, i) => hot ?? variants[i % variants.length]!);
  // A second line always on another variant than the first.
  const second = tokens.map((_, i) => {
    const candidate = variants[(i * 7919 + 1) % variants.length]!;
    return candidate === first[i] ? variants[(i * 7919 + 2) % variants.length]! : candidate;
  });
  const hashes = tokens.map((t) => hashToken(t));

  await sql`
    WITH input AS (
      SELECT * FROM unnest(${users}::text[], ${addresses}::text[], ${hashes}::bytea[], ${first}::text[], ${second}::text[])
        WITH ORDINALITY AS t(user_public_id, address_public_id, token_hash, first_variant, second_variant, n)
    ),
    new_users AS (
      INSERT INTO users (public_id, email, password_hash, first_name, last_name, role, email_verified_at)
      SELECT user_public_id, ${`shopper-${tag}-`} || n || '@bench.test', ${passwordHash}, 'Shopper', ${tag} || ' ' || n, 'CUSTOMER', now()
      FROM input
      RETURNING id, public_id
    ),
    new_addresses AS (
      INSERT INTO addresses (public_id, user_id, recipient_name, phone_number, label, country, state, city, address_1, zip_code, is_default_shipping, is_default_billing)
      SELECT i.address_public_id, u.id, 'Bench Shopper', '+15550100', 'Home', 'US', 'CA', 'San Francisco', '1 Market St', '94103', true, true
      FROM input i JOIN new_users u ON u.public_id = i.user_public_id
    ),
    new_sessions AS (
      INSERT INTO sessions (public_id, user_id, token_hash, expires_at)
      SELECT 'ses_' || substr(md5(i.user_public_id), 1, 20), u.id, i.token_hash, now() + interval '1 day'
      FROM input i JOIN new_users u ON u.public_id = i.user_public_id
    )
    INSERT INTO cart_items (user_id, variant_id, quantity)
    SELECT u.id, v.id, 1
    FROM input i
    JOIN new_users u ON u.public_id = i.user_public_id
    CROSS JOIN LATERAL (VALUES (i.first_variant), (i.second_variant)) AS line(variant_public_id)
    JOIN variants v ON v.public_id = line.variant_public_id
  `.execute(db);

  return tokens.map((token, i) => ({ cookie: `session=${token}`, csrf: csrfTokenFor(token), addressId: addresses[i]! }));
}
