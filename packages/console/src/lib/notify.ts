import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import { describe } from './errors';

/** A refusal or failure as a toast that stays long enough to read. */
export function notifyError(error: unknown, title = 'Not saved'): void {
  notifications.show({ color: 'red', title, message: describe(error), autoClose: 8000 });
}

/** A confirmation; user text in it is a node with that text in <bdi>. */
export function notifyDone(message: ReactNode): void {
  notifications.show({ color: 'teal', message, autoClose: 3000 });
}
