import { CloseButton, Group, Text } from '@mantine/core';
import { when } from '../lib/format';

/**
 * An exact start a list was opened with from a dashboard period ("Placed since 18 Nov, 14:05"):
 * shown beside the date fields, which hold whole days only, and removable on its own.
 */
export function SinceFilter({ label, since, onRemove }: { label: string; since: string | undefined; onRemove: () => void }) {
  if (!since) return null;
  return (
    <Group gap={4} wrap="nowrap" mb={6}>
      <Text size="sm">
        {label} since {when(since)}
      </Text>
      <CloseButton size="sm" aria-label={`Remove the “${label.toLowerCase()} since” filter`} onClick={onRemove} />
    </Group>
  );
}
