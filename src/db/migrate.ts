import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './database.js';
import { assertSupportedServer } from './server-version.js';
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

/**
 * Versioned migrations, applied in name order. They are imported statically
 * (not read from disk) so the same list works under tsx, compiled output and tests.
 */
const migrations: Record<string, Migration> = {
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
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Applies every pending migration; Kysely holds an advisory lock so concurrent starts are safe.
 * Every entry point (start, worker, CLI, tests) comes through here, so an unsupported server is
 * refused before anything is written.
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  await assertSupportedServer(db);
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
