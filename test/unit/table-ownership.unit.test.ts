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
  media_endpoint: 'media',
  reviews: 'reviews',
  expenses: 'expenses',
  events: 'events',
  event_targets: 'events',
  event_deliveries: 'events',
  event_inbox: 'events',
  event_stream: 'events',
  event_cursors: 'events',
  webhook_endpoints: 'webhooks',
  cache_targets: 'http-cache',
  staff_invitations: 'staff-invitations',
  storefront_totals: 'db',
  inventory_totals: 'db',
  product_documents: 'db',
  inventory_products: 'db',
  catalog_version: 'db',
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

const WRITE_BUILDERS = new Set(['insertInto', 'updateTable', 'deleteFrom', 'mergeInto', 'replaceInto']);
const READ_BUILDERS = new Set(['selectFrom', 'innerJoin', 'leftJoin', 'rightJoin', 'fullJoin']);
/** A write in SQL text: the statement's keyword, then the table, maybe `ONLY`, schema-qualified or quoted. */
const RAW_WRITE =
  /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|MERGE\s+INTO|TRUNCATE(?:\s+TABLE)?)\s+(?:ONLY\s+)?(?:"?public"?\.)?"?([a-z_]+)"?/gi;
/** A read in SQL text: a table after FROM or JOIN. */
const RAW_READ = /\b(?:FROM|JOIN)\s+(?:ONLY\s+)?(?:"?public"?\.)?"?([a-z_]+)"?/gi;

interface Access {
  table: string;
  folder: string;
  where: string;
}

/**
 * Every write and read of a table in the source, read from its syntax tree (so
 * comments never count, and strings are read whole): Kysely's builders and
 * SQL text in strings and templates. A write builder given anything but a
 * literal table name is reported as `(not a literal)`; a read builder given a
 * subquery is skipped (the subquery's own builders are seen).
 */
function accesses(): { writes: Access[]; reads: Access[] } {
  const writes: Access[] = [];
  const reads: Access[] = [];
  for (const file of sourceFiles(SRC)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const folder = path.relative(SRC, file).split(path.sep)[0]!;
    const at = (node: ts.Node) => `${path.relative(SRC, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const builder = node.expression.name.text;
        const [argument] = node.arguments;
        const literal = argument && ts.isStringLiteralLike(argument) ? argument.text.split(/\s+as\s+/)[0]!.trim() : null;
        if (WRITE_BUILDERS.has(builder)) {
          found(writes, literal ?? '(not a literal)', `${builder}(${argument?.getText() ?? ''})`);
        } else if (READ_BUILDERS.has(builder) && literal !== null) {
          if (Object.hasOwn(OWNERS, literal)) found(reads, literal, `${builder}(${argument!.getText()})`);
        }
      }
      if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
        for (const match of node.text.matchAll(RAW_WRITE))
          if (Object.hasOwn(OWNERS, match[1]!.toLowerCase())) found(writes, match[1]!.toLowerCase(), match[0]);
        for (const match of node.text.matchAll(RAW_READ))
          if (Object.hasOwn(OWNERS, match[1]!.toLowerCase())) found(reads, match[1]!.toLowerCase(), match[0]);
      }
      ts.forEachChild(node, visit);
      function found(list: Access[], table: string, what: string) {
        list.push({ table, folder, where: `${at(node)} ${what}` });
      }
    };
    visit(source);
  }
  return { writes, reads };
}

test('every table of the schema has an owning folder', () => {
  const schema = readFileSync(path.join(SRC, 'db/schema.ts'), 'utf8');
  const database = schema.slice(schema.indexOf('export interface Database {'));
  const tables = [...database.slice(0, database.indexOf('}')).matchAll(/^\s+(\w+): \w+;$/gm)].map((m) => m[1]!);
  assert.deepEqual(tables.sort(), Object.keys(OWNERS).sort());
});

test("only a table's owner writes it; the derived stores are written by no TypeScript at all", () => {
  const all = accesses().writes;
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

/**
 * The tables a folder reads without owning them, and why. Such reads lock
 * nothing and change nothing (a read that locks is the owner's function), and
 * joining them saves a round trip per list; listing them keeps the coupling in
 * sight: a new one fails the test below until it is added here with its reason
 * (or replaced by a call to the owner).
 */
const FOREIGN_READS: Record<string, { tables: string[]; why: string }> = {
  'admin-users': { tables: ['orders', 'users'], why: "the accounts list and an account's detail with its order count and spend" },
  analytics: {
    tables: ['coupon_usages', 'coupons', 'expenses', 'inventory', 'order_items', 'orders', 'products', 'reviews', 'users', 'variants'],
    why: "statistics, profit and loss and coupon analytics are reports over the other folders' rows",
  },
  audit: {
    tables: [
      'categories',
      'coupons',
      'event_targets',
      'expenses',
      'orders',
      'products',
      'reviews',
      'staff_invitations',
      'users',
      'variants',
      'webhook_endpoints',
    ],
    why: "an entry names its entity as a person would (an order's number, an email, a SKU, a name)",
  },
  cart: { tables: ['inventory', 'products', 'variants'], why: 'a cart line shows its product, price and stock' },
  catalog: {
    tables: ['inventory', 'product_documents', 'storefront_totals'],
    why: 'the in-stock filter and the variants of a product read their stock; the storefront reads the documents and totals the database keeps for it (src/db/DERIVED.md)',
  },
  coupons: { tables: ['orders', 'users'], why: "a coupon's usage lists the orders and customers that used it" },
  inventory: {
    tables: ['inventory_products', 'inventory_totals', 'orders', 'users', 'variants'],
    why: 'the records list reads its kept keys and totals and searches SKUs; a record is made for a live variant; a release checks what open orders hold; movements name their actor',
  },
  media: { tables: ['products', 'reviews', 'variants'], why: 'the pruner keeps a file while a review, product or variant points at it' },
  orders: { tables: ['products', 'users', 'variants'], why: "orders show their lines' product and variant and their customer's email" },
  reviews: {
    tables: ['order_items', 'orders', 'products', 'users'],
    why: 'a verified purchase is an order line of the product; reviews show their author',
  },
  webhooks: {
    tables: ['event_targets'],
    why: "an endpoint is an event target: its list and detail show the target's subscriptions and state beside its URL",
  },
  'staff-invitations': { tables: ['users'], why: 'the invitations list shows who sent each' },
  'http-cache': {
    tables: ['catalog_version', 'event_targets'],
    why: "public reads' ETags come from the version the database keeps (migration 0018); a cache is an event target, synced with its URL",
  },
};

test("a folder reads another folder's table only where FOREIGN_READS says so", () => {
  const found: Record<string, Set<string>> = {};
  for (const read of accesses().reads) if (OWNERS[read.table] !== read.folder) (found[read.folder] ??= new Set()).add(read.table);
  assert.deepEqual(
    Object.fromEntries(Object.entries(found).map(([folder, tables]) => [folder, [...tables].sort()])),
    Object.fromEntries(Object.entries(FOREIGN_READS).map(([folder, { tables }]) => [folder, tables])),
  );
});
