import { Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { FigureChange } from './figures';

/** Asks first, showing the figures before and after; resolves true when the person confirms. */
export function confirmChange(title: string, lines: FigureChange[]): Promise<boolean> {
  return new Promise((resolve) =>
    modals.openConfirmModal({
      title,
      children: (
        <Stack gap={4}>
          {lines.map(([label, before, after]) => (
            <Text size="sm" key={label}>
              {label}: {before} → <b>{after}</b>
            </Text>
          ))}
        </Stack>
      ),
      labels: { confirm: 'Apply', cancel: 'Back' },
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    }),
  );
}
