/** `npm run client:generate`: writes packages/client's generated files from the app (no server, no database). */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { clientFiles } from './client-files.js';

for (const [file, content] of Object.entries(await clientFiles())) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  console.log(`wrote ${file}`);
}
