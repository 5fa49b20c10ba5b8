/** Long enough for a description's edit to show where it differs; the CSV export has every value whole. */
const MAX_VALUE = 300;

/** A value as a person reads it: text as it is, nothing as a dash, anything else as short JSON. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return '—';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A field that names what the entry is about (the product a link is for): shown even when it did not change. */
const identifies = (field: string) => field.endsWith('public_id');

/** One field of an entry: its value (after the change), and what it `was` when the change altered it. */
export interface FieldChange {
  field: string;
  value: string;
  was?: string;
}

/**
 * What an entry changed, one field per line: an update's `field: was → value` for the fields that
 * changed (and the IDs that say what about), a creation's values, a deletion's values as they were.
 * An entry of any other shape is shown as its JSON. Values stay apart, so each is shown isolated.
 */
export function describeChanges(changes: unknown): { heading?: string; fields: FieldChange[] } | string {
  if (!isRecord(changes) || !('before' in changes || 'after' in changes)) return shown(changes);
  // An entry that records only what came of an action (a test event sent) has no `before` at all.
  const before = changes.before ?? null;
  const after = changes.after ?? null;
  if ((before !== null && !isRecord(before)) || (after !== null && !isRecord(after))) return shown(changes);
  if (!after) return { heading: 'Deleted', fields: Object.entries(before ?? {}).map(([field, value]) => ({ field, value: shown(value) })) };
  if (!before) return { fields: Object.entries(after).map(([field, value]) => ({ field, value: shown(value) })) };
  const fields = Object.keys({ ...before, ...after }).map((field) => ({
    field,
    same: JSON.stringify(before[field]) === JSON.stringify(after[field]),
  }));
  return {
    fields: fields
      .filter(({ field, same }) => !same || identifies(field))
      .map(({ field, same }) => ({ field, value: shown(after[field]), ...(same ? {} : { was: shown(before[field]) }) })),
  };
}
