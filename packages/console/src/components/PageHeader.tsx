import { Group, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, type ReactNode } from 'react';
import { shouldTakeFocus } from '../lib/arrival';

/** Moves focus to the screen's heading, or to the screen itself while it has none (loading, an error). */
export function focusHeading(): void {
  (document.querySelector<HTMLElement>('#main h1') ?? document.getElementById('main'))?.focus();
}

/** The page's one h1, its subtitle and actions; also names the browser tab, and takes focus on arrival (lib/arrival.ts). */
export function PageHeader({ title, subtitle, actions }: { title: string; subtitle?: ReactNode; actions?: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Commerce console`;
  }, [title]);
  useEffect(() => {
    if (shouldTakeFocus()) heading.current?.focus({ preventScroll: true });
  }, []);
  return (
    <Group justify="space-between" align="flex-end" mb="md" wrap="wrap" gap="sm">
      <Stack gap={2}>
        <Title order={1} size="h2" ref={heading} tabIndex={-1} style={{ outline: 'none' }}>
          {title}
        </Title>
        {subtitle ? (
          <Text c="dimmed" size="sm">
            {subtitle}
          </Text>
        ) : null}
      </Stack>
      {actions ? <Group gap="xs">{actions}</Group> : null}
    </Group>
  );
}
