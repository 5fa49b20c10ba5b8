import { sql, type Expression, type QueryExecutorProvider, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { batchesOf } from './batches.js';
import type { PageRequest } from './pagination.js';

/** SQL fragments shared by the repositories (no table of their own): patterns, key lists, paging, counts. */

/** A case-insensitive substring pattern for ILIKE with the user's wildcards escaped. */
export const containsPattern = (term: string): string => `%${likeEscaped(term)}%`;

/** `term` matched literally by LIKE (its `%`, `_` and `\\` escaped). */
export const likeEscaped = (term: string): string => term.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * `column = ANY(ARRAY(subquery))`: the subquery's keys (typically the union
 * of a few trigram-index lookups) are gathered into an array first, then the
 * outer rows are fetched by key. An OR across the lookups tests every row,
 * and `IN (subquery)` lets the planner hash-join it against a full scan.
 */
export const keyIn = (column: string, subquery: Expression<unknown>) => sql<SqlBool>`${sql.ref(column)} = ANY(ARRAY(${subquery}))`;

export const offsetOf = ({ page, limit }: PageRequest): number => (page - 1) * limit;

/**
 * Applies a page with LIMIT and OFFSET as literals (both validated integers),
 * so each page shape gets an exact cached plan instead of one that guesses
 * them (bench findings 16, 19). Use with `.$call(paged(page))`.
 */
interface Pageable {
  limit(limit: RawBuilder<number>): Pageable;
  offset(offset: RawBuilder<number>): Pageable;
}

export const paged =
  (page: PageRequest) =>
  <QB extends Pageable>(query: QB): QB => {
    const limited = query.limit(sql.lit(page.limit));
    const offset = offsetOf(page);
    return (offset > 0 ? limited.offset(sql.lit(offset)) : limited) as QB;
  };

/** The same page as a clause, for statements written as SQL text. */
export const pageClause = (page: PageRequest) => sql`LIMIT ${sql.lit(page.limit)} OFFSET ${sql.lit(offsetOf(page))}`;

/**
 * The filtered total of a list: the list's own FROM and WHERE counted once.
 * Use it as a scalar subquery in the page (`.select(countOf(base).as('total_count'))`)
 * and alone for the rare page past the end (`() => countOf(base).executeTakeFirstOrThrow().then(r => r.n)`).
 * A window count (`count(*) OVER ()`) would materialise every matching row instead.
 */
export function countOf<DB, TB extends keyof DB>(base: SelectQueryBuilder<DB, TB, object>) {
  return base.select(sql<number>`count(*)::int`.as('n'));
}

export const totalOf =
  <DB, TB extends keyof DB>(base: SelectQueryBuilder<DB, TB, object>) =>
  async (): Promise<number> =>
    ((await countOf(base).executeTakeFirstOrThrow()) as { n: number }).n;

/**
 * Runs `statement` once per batch of `rows`, each batch passed as `x`, the JSON record set of
 * `columns` (`id bigint, name text`): one parameter however many rows, for an UPDATE ... FROM.
 * Returns the rows every statement returned, in order.
 */
export async function eachBatchAsRecords<R>(
  db: QueryExecutorProvider,
  rows: readonly object[],
  columns: string,
  statement: (x: RawBuilder<unknown>) => RawBuilder<R>,
): Promise<R[]> {
  const returned: R[] = [];
  for (const batch of batchesOf(rows)) {
    const x = sql`jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) AS x(${sql.raw(columns)})`;
    returned.push(...(await statement(x).execute(db)).rows);
  }
  return returned;
}

/**
 * An image list (a jsonb array of objects whose `key` holds a URL) with every URL under the image
 * host's old address `from` moved to `to`, order kept; and the condition that a list has one.
 * For a move of PUBLIC_BASE_URL (src/media-endpoint.ts), by each table's owner.
 */
export function movedImageList(
  column: string,
  key: string,
  from: string,
  to: string,
): { value: RawBuilder<unknown>; needed: RawBuilder<boolean> } {
  const prefix = `${from}/`;
  const element = sql.raw('e');
  const url = sql`${element} ->> ${key}`;
  return {
    value: sql`(SELECT coalesce(jsonb_agg(CASE WHEN starts_with(${url}, ${prefix})
                 THEN jsonb_set(${element}, ARRAY[${key}], to_jsonb(${to}::text || substr(${url}, ${from.length + 1})))
                 ELSE ${element} END ORDER BY n), '[]'::jsonb)
               FROM jsonb_array_elements(${sql.ref(column)}) WITH ORDINALITY AS x(e, n))`,
    needed: sql<boolean>`EXISTS (SELECT 1 FROM jsonb_array_elements(${sql.ref(column)}) AS x(e) WHERE starts_with(${url}, ${prefix}))`,
  };
}
