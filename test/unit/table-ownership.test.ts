import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

/**
 * One owner per table: only the owning folder's code writes a table (other folders call the
 * owner's functions). Every table of the schema is listed here with its owner, so a new table
 * must be given one; the derived stores belong to `db`, whose migrations keep them by trigger
 * (src/db/DERIVED.md), and no TypeScript writes them.
 */
const OWNERS: Record<string, string> = {
  users: 'identity',
  sessions: 'identity',
  account_tokens: 'identity',
  rate_limits: 'rate-limits',
  addresses: 'addresses',
  audit_log: 'audit',
  categories: 'catalog',
  products: 'catalog',
  product_categories: 'catalog',
  variants: 'catalog',
  inventory: 'inventory',
  inventory_movements: 'inventory',
  idempotency_keys: 'idempotency',
  cart_items: 'cart',
  coupons: 'coupons',
  coupon_usages: 'coupons',
  orders: 'orders',
  order_items: 'orders',
  order_status_history: 'orders',
  outbox: 'outbox',
  upload_tokens: 'media',
  media_files: 'media',
  service_secrets: 'media',
  reviews: 'reviews',
  expenses: 'expenses',
  storefront_totals: 'db',
  inventory_totals: 'db',
  product_documents: 'db',
  inventory_products: 'db',
};
const DERIVED = Object.keys(OWNERS).filter((table) => OWNERS[table] === 'db');

const SRC = path.resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return full.endsWith(`${path.sep}migrations`) ? [] : sourceFiles(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

const BUILDERS = new Set(['insertInto', 'updateTable', 'deleteFrom', 'mergeInto', 'replaceInto']);
/** A write in SQL text: the statement's keyword, then the table, maybe `ONLY`, schema-qualified or quoted. */
const RAW_WRITE =
  /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|MERGE\s+INTO|TRUNCATE(?:\s+TABLE)?)\s+(?:ONLY\s+)?(?:"?public"?\.)?"?([a-z_]+)"?/gi;

interface Write {
  table: string;
  folder: string;
  where: string;
}

/**
 * Every write in the source, read from its syntax tree (so comments never count, and strings are
 * read whole): Kysely's write builders, whose table must be a literal, and SQL text in strings and
 * templates. A builder given anything but a literal table name is reported as `(not a literal)`.
 */
function writes(): Write[] {
  const found: Write[] = [];
  for (const file of sourceFiles(SRC)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const folder = path.relative(SRC, file).split(path.sep)[0]!;
    const at = (node: ts.Node) => `${path.relative(SRC, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && BUILDERS.has(node.expression.name.text)) {
        const [argument] = node.arguments;
        const table = argument && ts.isStringLiteralLike(argument) ? argument.text.split(/\s+as\s+/)[0]!.trim() : '(not a literal)';
        found.push({ table, folder, where: `${at(node)} ${node.expression.name.text}(${argument?.getText() ?? ''})` });
      }
      if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
        for (const match of node.text.matchAll(RAW_WRITE)) {
          const table = match[1]!.toLowerCase();
          if (table in OWNERS) found.push({ table, folder, where: `${at(node)} ${match[0]}` });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

test('every table of the schema has an owning folder', () => {
  const schema = readFileSync(path.join(SRC, 'db/schema.ts'), 'utf8');
  const database = schema.slice(schema.indexOf('export interface Database {'));
  const tables = [...database.slice(0, database.indexOf('}')).matchAll(/^\s+(\w+): \w+;$/gm)].map((m) => m[1]!);
  assert.deepEqual(tables.sort(), Object.keys(OWNERS).sort());
});

test("only a table's owner writes it; the derived stores are written by no TypeScript at all", () => {
  const all = writes();
  const strangers = all.filter((w) => OWNERS[w.table] !== w.folder).map((w) => `${w.where} (owner: ${OWNERS[w.table] ?? 'none'})`);
  assert.deepEqual(strangers, []);
  // The scan sees what it must: every table but the derived stores is written somewhere by its owner.
  const written = new Set(all.map((w) => w.table));
  assert.deepEqual(
    Object.keys(OWNERS).filter((table) => !written.has(table) && !DERIVED.includes(table)),
    [],
    'tables the scan found no write for',
  );
});
