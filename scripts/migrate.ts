/**
 * `npm run db:migrate`: applies pending migrations (through MIGRATION_DATABASE_URL when set) and
 * reports them. The release step when instances run with MIGRATE_ON_START=false.
 */
import { openDatabase } from './database.js';

const { applied, close } = await openDatabase({ pool: false });
console.log(applied.length > 0 ? `applied ${applied.join(', ')}` : 'nothing to apply');
console.log('database is migrated to the latest version');
await close();
