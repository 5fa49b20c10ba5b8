/**
 * `npm run db:migrate`: applies pending migrations (through MIGRATION_DATABASE_URL when set), builds
 * the indexes they ask to be built concurrently (src/db/concurrent-indexes.ts), and reports both. The
 * release step when instances run with MIGRATE_ON_START=false; it exits 1 when an index build failed
 * (the migrations are applied; running it again builds what is missing).
 */
import { loadConfig } from '../src/config.js';
import { databaseTarget, openDatabase } from './database.js';

const config = loadConfig();
console.log(`migrating ${databaseTarget(config)}`);
const { applied, indexes, close } = await openDatabase({ pool: false, config });
console.log(applied.length > 0 ? `applied ${applied.join(', ')}` : 'nothing to apply');
if (indexes.built.length > 0) console.log(`built indexes ${indexes.built.join(', ')}`);
console.log('database is migrated to the latest version');
if (indexes.failed.length > 0) process.exitCode = 1;
await close();
