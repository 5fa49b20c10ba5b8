import { Group, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, type ReactNode } from 'react';
import { shouldTakeFocus } from '../lib/arrival';

/** Zero-width characters and marks, bidirectional embeddings, overrides and isolates, the byte-order mark. */
const INVISIBLE_CONTROLS = /[\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/g;

/** Moves focus to the screen's heading, or to the screen itself while it has none (loading, an error). */
export function focusHeading(): void {
  (document.querySelector<HTMLElement>('#main h1') ?? document.getElementById('main'))?.focus();
}

/**
 * The page's one h1, its subtitle and actions; also names the browser tab, and takes focus on arrival
 * (lib/arrival.ts). A title that shows user text (a product's name) is a node with the text in <bdi>,
 * and `tabTitle` names the tab, as plain text: its direction controls and invisible characters (the
 * API refuses them now; an older stored name may hold them) are left out, so it cannot reorder the
 * tab's title, and nothing invisible is added that a bookmark or a copied title would carry.
 */
export function PageHeader({
  title,
  tabTitle,
  subtitle,
  actions,
}: {
  title: ReactNode;
  tabTitle?: string;
  subtitle?: ReactNode;
  actions?: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const tab = tabTitle === undefined ? (typeof title === 'string' ? title : '') : tabTitle.replace(INVISIBLE_CONTROLS, '');
  useEffect(() => {
    document.title = tab ? `${tab} · Commerce console` : 'Commerce console';
  }, [tab]);
  useEffect(() => {
    if (shouldTakeFocus()) heading.current?.focus({ preventScroll: true });
  }, []);
  return (
    <Group justify="space-between" align="flex-end" mb="md" wrap="wrap" gap="sm">
      {/* A flex child may shrink below its longest word only when told: a long name then wraps. */}
      <Stack gap={2} miw={0} maw="100%">
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
