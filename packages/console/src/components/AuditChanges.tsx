import { Box, Code, List, Text } from '@mantine/core';

const MAX_VALUE = 80;

/** A value as a person reads it: text as it is, nothing as a dash, anything else as short JSON. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return '—';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The fields an entry changed, one per line: `field: before → after` for an update, the values set
 * for a creation, "Deleted" for a deletion. Entries of another shape are shown as their JSON.
 */
export function describeChanges(changes: unknown): { field: string; text: string }[] | string {
  if (!isRecord(changes) || !('before' in changes || 'after' in changes)) return shown(changes);
  const before = isRecord(changes.before) ? changes.before : null;
  const after = isRecord(changes.after) ? changes.after : null;
  if (!after) return before ? 'Deleted' : '—';
  return Object.keys({ ...before, ...after })
    .filter((field) => !before || JSON.stringify(before[field]) !== JSON.stringify(after[field]))
    .map((field) => ({ field, text: before ? `${shown(before[field])} → ${shown(after[field])}` : shown(after[field]) }));
}

export function AuditChanges({ changes, reason }: { changes: unknown; reason: string | null | undefined }) {
  const described = changes === null || changes === undefined ? [] : describeChanges(changes);
  return (
    <Box miw={240} maw={420}>
      {reason ? <Text size="xs">Reason: {reason}</Text> : null}
      {typeof described === 'string' ? (
        <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
          {described}
        </Text>
      ) : described.length > 0 ? (
        <List size="xs" listStyleType="none" spacing={2}>
          {described.map(({ field, text }) => (
            <List.Item key={field} style={{ overflowWrap: 'anywhere' }}>
              <Code>{field}</Code> {text}
            </List.Item>
          ))}
        </List>
      ) : reason ? null : (
        '—'
      )}
    </Box>
  );
}
