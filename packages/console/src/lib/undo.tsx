import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import { notifyDone, notifyError } from './notify';

/**
 * Optimistic feedback for an action the API can reverse exactly: it is applied at once (no dialog) and
 * confirmed with an Undo button that applies the reverse. Only for such actions; deletes, order
 * transitions and stock changes are irreversible or leave records behind, so they ask first instead.
 * The notice stays 10 seconds, and while the pointer is on it, so there is time to reach the button.
 */
export function notifyUndoable(message: ReactNode, undo: () => Promise<unknown>, undone: ReactNode): void {
  const id = notifications.show({
    color: 'teal',
    autoClose: 10_000,
    message: (
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Text size="sm">{message}</Text>
        <Button
          size="compact-sm"
          variant="light"
          onClick={() =>
            void (async () => {
              notifications.hide(id);
              try {
                await undo();
                notifyDone(undone);
              } catch (error) {
                notifyError(error, 'Not undone');
              }
            })()
          }
        >
          Undo
        </Button>
      </Group>
    ),
  });
}
