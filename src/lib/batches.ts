/**
 * Rows per multi-row statement for bulk writes (a catalog import). A statement with many rows
 * fires each statement-level trigger once instead of once per row, which is what makes a
 * 10,000-row import take seconds rather than minutes; PostgreSQL takes at most 65,535
 * parameters per statement, so rows of up to 60 columns fit in one batch of this size.
 */
export const ROWS_PER_STATEMENT = 1000;

/** `items` in consecutive slices of at most `size`, in order. */
export function* batchesOf<T>(items: readonly T[], size = ROWS_PER_STATEMENT): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}

/** `items` grouped by `key`, groups in the order their first item comes, items in order within each. */
export function groupedBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}
