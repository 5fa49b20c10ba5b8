import { Box, Code, List, Text } from '@mantine/core';
import { describeChanges } from './describe-changes';

export function AuditChanges({ changes, reason }: { changes: unknown; reason: string | null | undefined }) {
  const described = changes === null || changes === undefined ? null : describeChanges(changes);
  const nothing = described === null || (typeof described !== 'string' && described.fields.length === 0 && !described.heading);
  return (
    <Box miw={240} maw={420}>
      {reason ? <Text size="xs">Reason: {reason}</Text> : null}
      {typeof described === 'string' ? (
        <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
          {described}
        </Text>
      ) : described ? (
        <>
          {described.heading ? (
            <Text size="xs" fw={600}>
              {described.heading}
            </Text>
          ) : null}
          <List size="xs" listStyleType="none" spacing={2}>
            {described.fields.map(({ field, text }) => (
              <List.Item key={field} style={{ overflowWrap: 'anywhere' }}>
                <Code>{field}</Code> {text}
              </List.Item>
            ))}
          </List>
        </>
      ) : null}
      {nothing && !reason ? '—' : null}
    </Box>
  );
}
