import { Button, Group, Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { count } from '../lib/format';

/** Above a list with rows picked: how many, what can be done to them all, and a way to let go of them. */
export function BulkBar({
  selected,
  noun,
  onClear,
  children,
}: {
  selected: number;
  noun: [one: string, many: string];
  onClear: () => void;
  children: ReactNode;
}) {
  if (selected === 0) return null;
  return (
    <Paper withBorder p="xs" mb="sm" radius="md" bg="var(--mantine-primary-color-light)" role="region" aria-label="Bulk actions">
      <Group gap="sm" wrap="wrap">
        <Text size="sm" fw={600} aria-live="polite">
          {count(selected)} {selected === 1 ? noun[0] : noun[1]} selected
        </Text>
        {children}
        <Button size="xs" variant="subtle" onClick={onClear}>
          Clear selection
        </Button>
      </Group>
    </Paper>
  );
}
