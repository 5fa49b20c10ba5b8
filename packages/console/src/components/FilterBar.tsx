import { Button, Group, Paper } from '@mantine/core';
import type { ReactNode } from 'react';

/** The filters above a list; `onClear` appears only while a filter is set. */
export function FilterBar({ children, onClear }: { children: ReactNode; onClear?: (() => void) | undefined }) {
  return (
    <Paper withBorder p="sm" mb="md" radius="md" role="search">
      <Group gap="sm" align="flex-end" wrap="wrap">
        {children}
        {onClear ? (
          <Button variant="subtle" size="sm" onClick={onClear}>
            Clear filters
          </Button>
        ) : null}
      </Group>
    </Paper>
  );
}
