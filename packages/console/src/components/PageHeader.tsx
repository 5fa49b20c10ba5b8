import { Group, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, type ReactNode } from 'react';
import { hasNavigated } from '../lib/arrival';

/** Moves focus to the screen's heading (the skip link, and arriving on a screen). */
export function focusHeading(): void {
  document.querySelector<HTMLElement>('#main h1')?.focus();
}

/**
 * The page's one h1, its subtitle and actions; also names the browser tab. A screen moved to
 * (not the first of a page load) takes focus to its heading when focus was left on the navigation,
 * the header or nowhere (the link that led here is gone), so keyboard and screen-reader users start
 * reading the new screen instead of the old one's leftovers; focus in a field is never taken.
 */
export function PageHeader({ title, subtitle, actions }: { title: string; subtitle?: ReactNode; actions?: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Commerce console`;
  }, [title]);
  useEffect(() => {
    const active = document.activeElement;
    if (!hasNavigated()) return;
    if (!active || active === document.body || active.closest('nav, header')) heading.current?.focus({ preventScroll: true });
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
