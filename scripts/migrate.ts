/** `npm run db:migrate`: applies pending migrations and reports them. */
import { openDatabase } from './database.js';

const { close } = await openDatabase();
console.log('database is migrated to the latest version');
await close();
