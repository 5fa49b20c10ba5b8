import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import ts from 'typescript';
import { fileDatabase } from './helpers/service.js';

/**
 * src/db/schema.ts (the table shapes Kysely type-checks every query against)
 * read with TypeScript's own checker and compared with the migrated database:
 * the same tables, the same columns, the same nullability, and a TypeScript
 * type that is what node-postgres hands back for the column's SQL type. A
 * migration without its types, or types without their migration, fails here.
 */

type Kind = 'string' | 'number' | 'boolean' | 'Date' | 'Buffer' | 'json';
interface Column {
  kinds: Set<Kind>;
  nullable: boolean;
}

const SCHEMA_FILE = path.resolve('src/db/schema.ts');

/** Each table's columns as Kysely selects them (`Selectable<Database[T]>`), from the type checker. */
function declaredTables(): Map<string, Map<string, Column>> {
  const probeFile = path.resolve('src/db/__schema_probe__.ts');
  const probe = `import type { Selectable } from 'kysely';\nimport type { Database } from './schema.js';\nexport type Rows = { [T in keyof Database]: Selectable<Database[T]> };\n`;
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    strict: true,
    skipLibCheck: true,
    types: ['node'],
    noEmit: true,
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => (path.resolve(file) === probeFile ? probe : readFile(file));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => path.resolve(file) === probeFile || fileExists(file);
  const program = ts.createProgram([probeFile, SCHEMA_FILE], options, host);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(probeFile)!;
  const alias = source.statements.find(ts.isTypeAliasDeclaration)!;
  const rows = checker.getTypeAtLocation(alias.name);

  const kindsOf = (type: ts.Type): { kinds: Set<Kind>; nullable: boolean } => {
    const members = type.isUnion() ? type.types : [type];
    const kinds = new Set<Kind>();
    let nullable = false;
    for (const member of members) {
      const flags = member.getFlags();
      if (flags & ts.TypeFlags.Null) nullable = true;
      else if (flags & ts.TypeFlags.StringLike) kinds.add('string');
      else if (flags & ts.TypeFlags.NumberLike) kinds.add('number');
      else if (flags & ts.TypeFlags.BooleanLike) kinds.add('boolean');
      else if (member.getSymbol()?.getName() === 'Date') kinds.add('Date');
      else if (member.getSymbol()?.getName() === 'Buffer') kinds.add('Buffer');
      else kinds.add('json'); // objects, arrays, unknown: a JSON column's parsed value
    }
    return { kinds, nullable };
  };

  const tables = new Map<string, Map<string, Column>>();
  for (const table of checker.getPropertiesOfType(rows)) {
    const row = checker.getTypeOfSymbolAtLocation(table, alias);
    const columns = new Map<string, Column>();
    for (const column of checker.getPropertiesOfType(row))
      columns.set(column.getName(), kindsOf(checker.getTypeOfSymbolAtLocation(column, alias)));
    tables.set(table.getName(), columns);
  }
  return tables;
}

/** What node-postgres returns for a column of each SQL type, as this service configures it (src/db/database.ts). */
const KIND_OF_SQL: Readonly<Record<string, Kind>> = {
  text: 'string',
  'character varying': 'string',
  character: 'string',
  citext: 'string',
  uuid: 'string',
  inet: 'string',
  xid8: 'string', // a transaction ID, which pg returns as text
  numeric: 'string', // exact decimals stay strings
  date: 'string', // kept as PostgreSQL's text
  integer: 'number',
  smallint: 'number',
  bigint: 'number', // parsed: identities and counts stay below 2^53
  'double precision': 'number',
  real: 'number',
  boolean: 'boolean',
  'timestamp with time zone': 'Date',
  'timestamp without time zone': 'Date',
  bytea: 'Buffer',
  jsonb: 'json',
  json: 'json',
  ARRAY: 'json', // a PostgreSQL array comes back as a JavaScript array
};

const files = fileDatabase();

test('src/db/schema.ts matches the migrated database: tables, columns, nullability and types', async () => {
  const declared = declaredTables();
  const { rows } = await sql<{ table_name: string; column_name: string; is_nullable: 'YES' | 'NO'; data_type: string; udt_name: string }>`
    SELECT c.table_name, c.column_name, c.is_nullable, c.data_type, c.udt_name
    FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
    WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.table_name NOT LIKE 'kysely_%'
    ORDER BY c.table_name, c.ordinal_position`.execute(files.db);

  const actual = new Map<string, Map<string, { nullable: boolean; sqlType: string }>>();
  for (const row of rows) {
    const sqlType = row.data_type === 'USER-DEFINED' ? row.udt_name : row.data_type;
    if (!actual.has(row.table_name)) actual.set(row.table_name, new Map());
    actual.get(row.table_name)!.set(row.column_name, { nullable: row.is_nullable === 'YES', sqlType });
  }

  const problems: string[] = [];
  for (const table of actual.keys()) if (!declared.has(table)) problems.push(`table ${table} is in the database but not in schema.ts`);
  for (const table of declared.keys()) if (!actual.has(table)) problems.push(`table ${table} is in schema.ts but not in the database`);
  for (const [table, columns] of actual) {
    const types = declared.get(table);
    if (!types) continue;
    for (const name of types.keys()) if (!columns.has(name)) problems.push(`${table}.${name} is in schema.ts but not in the database`);
    for (const [name, column] of columns) {
      const type = types.get(name);
      if (!type) {
        problems.push(`${table}.${name} (${column.sqlType}) is in the database but not in schema.ts`);
        continue;
      }
      if (type.nullable !== column.nullable) {
        problems.push(
          `${table}.${name} is ${column.nullable ? 'nullable' : 'NOT NULL'} in the database but ${type.nullable ? 'nullable' : 'not'} in schema.ts`,
        );
      }
      const expected = KIND_OF_SQL[column.sqlType];
      if (expected === undefined) problems.push(`${table}.${name}: add SQL type ${column.sqlType} to this test's KIND_OF_SQL`);
      else if (type.kinds.size !== 1 || !type.kinds.has(expected)) {
        problems.push(`${table}.${name} is ${column.sqlType} (read as ${expected}) but schema.ts says ${[...type.kinds].join(' | ')}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});
