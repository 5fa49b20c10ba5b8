import pg from 'pg';
import { Kysely, Migrator, PostgresAdapter, PostgresDialect, type Migration, type MigrationProvider, type PostgresPool } from 'kysely';
import { isLockNotAvailable } from '../lib/db-errors.js';
import type { Db } from './database.js';
import type { Database } from './schema.js';
import { assertNotNewer, readSchemaState } from './schema-state.js';
import { assertSupportedServer } from './server-version.js';
import type { ConcurrentIndex } from './concurrent-indexes.js';
import * as foundation from './migrations/0001-foundation.js';
import * as catalogInventory from './migrations/0002-catalog-inventory.js';
import * as orders from './migrations/0003-orders.js';
import * as accountsMediaReviews from './migrations/0004-accounts-media-reviews.js';
import * as administration from './migrations/0005-administration.js';
import * as listIndexes from './migrations/0006-list-indexes.js';
import * as stockWritePath from './migrations/0007-stock-write-path.js';
import * as storefrontTotal from './migrations/0008-storefront-total.js';
import * as inventoryTotal from './migrations/0009-inventory-total.js';
import * as productSortIds from './migrations/0010-product-sort-ids.js';
import * as productDocuments from './migrations/0011-product-documents.js';
import * as inventoryProducts from './migrations/0012-inventory-products.js';
import * as mediaStore from './migrations/0013-media-store.js';
import * as outboxClaims from './migrations/0014-outbox-claims.js';
import * as derivedBySource from './migrations/0015-derived-by-source.js';
import * as staffInvitations from './migrations/0016-staff-invitations.js';
import * as events from './migrations/0017-events.js';
import * as cachePurges from './migrations/0018-cache-purges.js';
import * as purgeScarceStock from './migrations/0019-purge-scarce-stock.js';
import * as publicDocuments from './migrations/0020-public-documents.js';
import * as deliveryClaims from './migrations/0021-delivery-claims.js';
import * as fanOutWaitsForDeletions from './migrations/0022-fan-out-waits-for-deletions.js';
import * as deletionsWaitForNoOne from './migrations/0023-deletions-wait-for-no-one.js';
import * as eventStreams from './migrations/0024-event-streams.js';
import * as verifiedPurchasePurges from './migrations/0025-verified-purchase-purges.js';
import * as reviewPurgesForWhatShows from './migrations/0026-review-purges-for-what-shows.js';
import * as mediaEndpoint from './migrations/0027-media-endpoint.js';
import * as redeliveryRounds from './migrations/0028-redelivery-rounds.js';
import * as idempotencyKeyAges from './migrations/0029-idempotency-key-ages.js';
import * as cartLineRoom from './migrations/0030-cart-line-room.js';
import * as brandSearch from './migrations/0031-brand-search.js';

/**
 * Versioned migrations, applied in name order. They are imported statically
 * (not read from disk) so the same list works under tsx, compiled output and tests.
 */
const migrations: Record<string, Migration & { concurrentIndexes?: readonly ConcurrentIndex[] }> = {
  '0001-foundation': foundation,
  '0002-catalog-inventory': catalogInventory,
  '0003-orders': orders,
  '0004-accounts-media-reviews': accountsMediaReviews,
  '0005-administration': administration,
  '0006-list-indexes': listIndexes,
  '0007-stock-write-path': stockWritePath,
  '0008-storefront-total': storefrontTotal,
  '0009-inventory-total': inventoryTotal,
  '0010-product-sort-ids': productSortIds,
  '0011-product-documents': productDocuments,
  '0012-inventory-products': inventoryProducts,
  '0013-media-store': mediaStore,
  '0014-outbox-claims': outboxClaims,
  '0015-derived-by-source': derivedBySource,
  '0016-staff-invitations': staffInvitations,
  '0017-events': events,
  '0018-cache-purges': cachePurges,
  '0019-purge-scarce-stock': purgeScarceStock,
  '0020-public-documents': publicDocuments,
  '0021-delivery-claims': deliveryClaims,
  '0022-fan-out-waits-for-deletions': fanOutWaitsForDeletions,
  '0023-deletions-wait-for-no-one': deletionsWaitForNoOne,
  '0024-event-streams': eventStreams,
  '0025-verified-purchase-purges': verifiedPurchasePurges,
  '0026-review-purges-for-what-shows': reviewPurgesForWhatShows,
  '0027-media-endpoint': mediaEndpoint,
  '0028-redelivery-rounds': redeliveryRounds,
  '0029-idempotency-key-ages': idempotencyKeyAges,
  '0030-cart-line-room': cartLineRoom,
  '0031-brand-search': brandSearch,
};

/** The names of the migrations this code has, in the order they apply. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations).sort();

/** The indexes the migrations ask to be built without blocking writes (concurrent-indexes.ts), in migration order. */
export const CONCURRENT_INDEXES: readonly ConcurrentIndex[] = MIGRATION_NAMES.flatMap((name) => migrations[name]!.concurrentIndexes ?? []);

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * The key of the migration lock: Kysely's own, so an instance of a release that still took it as
 * a session lock and one taking it here exclude each other (both kinds share one lock space).
 */
const MIGRATION_LOCK = '3853314791062309107';

/**
 * Kysely's migrator without its own lock: a session lock, taken and released as two statements,
 * which a transaction pooler may send to two server connections, stranding it on the first.
 * migrateToLatest holds a transaction lock instead.
 */
class TransactionLockedAdapter extends PostgresAdapter {
  override async acquireMigrationLock(): Promise<void> {}
  override async releaseMigrationLock(): Promise<void> {}
}

class MigrationDialect extends PostgresDialect {
  override createAdapter(): PostgresAdapter {
    return new TransactionLockedAdapter();
  }
}

export interface MigrateOptions {
  /**
   * How long one statement waits for a table lock (PostgreSQL's lock_timeout; MIGRATION_LOCK_TIMEOUT_MS).
   * A migration that waits longer steps back: every query on the table would queue behind its wait.
   */
  lockTimeoutMs?: number;
  /** Runs in all, the first included, when each gives up on a table lock; the pause between doubles from a second. */
  attempts?: number;
  /** Told before each retry (the service logs it). */
  onRetry?: (attempt: number, error: Error) => void;
}

/**
 * Applies every pending migration through `connectionString` (a direct URL or a transaction
 * pooler's) and returns their names. Everything runs in one transaction on one connection of its
 * own, which first takes a transaction-scoped advisory lock: concurrent runs wait for each other
 * and then find nothing to do, and the lock ends with the transaction whatever happens (a commit,
 * a rollback, a connection cut by a crash), so no pooler can leave it behind. An unsupported
 * server is refused before anything is written, as is a schema newer than this code.
 *
 * A statement that needs a table lock another session holds (a long query, an open transaction)
 * waits at most `lockTimeoutMs`: the whole run is rolled back and tried again after a pause, so a
 * migration never leaves the shop's queries queued behind it for long. After `attempts` runs it
 * stops with a message that says so, having changed nothing.
 */
export async function migrateToLatest(connectionString: string, options: MigrateOptions = {}): Promise<string[]> {
  const { lockTimeoutMs = 5_000, attempts = 5, onRetry } = options;
  for (let attempt = 1; ; attempt++) {
    try {
      return await migrateOnce(connectionString, lockTimeoutMs);
    } catch (error) {
      if (!(error instanceof Error && isLockNotAvailable(error))) throw error;
      if (attempt >= attempts) {
        throw new Error(
          `Migrations stopped: ${attempts} times a statement waited more than ${lockTimeoutMs} ms for a table lock that another ` +
            'session holds (a long query or an open transaction: see pg_stat_activity). Nothing was applied; run them again ' +
            'once it has ended, or raise MIGRATION_LOCK_TIMEOUT_MS.',
          { cause: error },
        );
      }
      onRetry?.(attempt, error);
      await new Promise((resolve) => setTimeout(resolve, Math.min(1_000 * 2 ** (attempt - 1), 10_000)));
    }
  }
}

async function migrateOnce(connectionString: string, lockTimeoutMs: number): Promise<string[]> {
  const client = new pg.Client({ connectionString });
  client.on('error', () => {}); // a lost connection fails the query in flight, which is what reports it
  await client.connect();
  // Kysely's driver asks a pool for a client; this one always hands out the same connection, so a
  // lost connection fails the migration rather than opening a new one outside the transaction.
  const single = { query: client.query.bind(client), release: () => {} };
  const db: Db = new Kysely<Database>({
    dialect: new MigrationDialect({ pool: { connect: async () => single, end: async () => {} } as unknown as PostgresPool }),
  });
  try {
    await client.query('BEGIN');
    // Waiting for another run is waiting to find nothing to do: only the statements after it are bounded.
    await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await client.query(`SET LOCAL lock_timeout = ${Math.round(lockTimeoutMs)}`);
    await assertSupportedServer(db);
    assertNotNewer(await readSchemaState(db, MIGRATION_NAMES));
    const { error, results } = await new Migrator({ db, provider, disableTransactions: true }).migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
    await client.query('COMMIT');
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}
