import { Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One figure with its label; `link` (an Anchor rendering a router Link) leads to the list behind the number. */
export function StatCard({ label, value, hint, link }: { label: string; value: ReactNode; hint?: ReactNode; link?: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" h="100%">
      <Stack gap={4}>
        <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
          {label}
        </Text>
        <Text fz={26} fw={700} lh={1.2}>
          {value}
        </Text>
        {hint ? (
          <Text size="xs" c="dimmed">
            {hint}
          </Text>
        ) : null}
        {link ?? null}
      </Stack>
    </Paper>
  );
}
