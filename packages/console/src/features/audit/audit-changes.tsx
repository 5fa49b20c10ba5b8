import { Box, Code, List, Text } from '@mantine/core';
import { describeChanges } from './describe-changes';

export function AuditChanges({ changes, reason }: { changes: unknown; reason: string | null | undefined }) {
  const described = changes === null || changes === undefined ? null : describeChanges(changes);
  const nothing = described === null || (typeof described !== 'string' && described.fields.length === 0 && !described.heading);
  return (
    <Box miw={160} maw={420}>
      {reason ? (
        <Text size="xs">
          Reason: <bdi>{reason}</bdi>
        </Text>
      ) : null}
      {typeof described === 'string' ? (
        <Text size="xs">
          <bdi>{described}</bdi>
        </Text>
      ) : described ? (
        <>
          {described.heading ? (
            <Text size="xs" fw={600}>
              {described.heading}
            </Text>
          ) : null}
          <List size="xs" listStyleType="none" spacing={2}>
            {described.fields.map(({ field, value, was }) => (
              <List.Item key={field}>
                <Code>{field}</Code>{' '}
                {was === undefined ? null : (
                  <>
                    <bdi>{was}</bdi> →{' '}
                  </>
                )}
                <bdi>{value}</bdi>
              </List.Item>
            ))}
          </List>
        </>
      ) : null}
      {nothing && !reason ? '—' : null}
    </Box>
  );
}
