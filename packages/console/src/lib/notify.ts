import { notifications } from '@mantine/notifications';
import { describe } from './errors';

/** A refusal or failure as a toast that stays long enough to read. */
export function notifyError(error: unknown, title = 'Not saved'): void {
  notifications.show({ color: 'red', title, message: describe(error), autoClose: 8000 });
}

export function notifyDone(message: string): void {
  notifications.show({ color: 'teal', message, autoClose: 3000 });
}
