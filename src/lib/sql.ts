import { sql, type Expression, type SqlBool } from 'kysely';

/** A case-insensitive substring pattern for ILIKE with the user's wildcards escaped. */
export const containsPattern = (term: string): string => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * `column = ANY(ARRAY(subquery))`: the subquery's keys (typically the union
 * of a few trigram-index lookups) are gathered into an array first, then the
 * outer rows are fetched by key. An OR across the lookups tests every row,
 * and `IN (subquery)` lets the planner hash-join it against a full scan.
 */
export const keyIn = (column: string, subquery: Expression<unknown>) => sql<SqlBool>`${sql.ref(column)} = ANY(ARRAY(${subquery}))`;
