import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';
import { notifyDone, notifyError } from './notify';

export interface ConfirmedAction<R> {
  title: ReactNode;
  /** What will happen, in words; user text in it is a node with that text in <bdi>. */
  body: ReactNode;
  /** The confirming button's label ("Delete", "Suspend"). */
  confirm: string;
  cancel?: string;
  /** A change that cannot be undone has a red button (the default). */
  danger?: boolean;
  action: () => Promise<R>;
  /** Said once the change is made (of what it made, when that is news: a copy's name). */
  done: ReactNode | ((result: R) => ReactNode);
  /** The title of the message that says why it was not made. */
  failed: string;
  /** Once the change is made: e.g. leave the screen of what is gone, or open what was made. */
  after?: (result: R) => Promise<unknown> | void;
}

/** Asks before a change, then makes it and says how it went: done, or not done and why. */
export function confirmThen<R>({
  title,
  body,
  confirm,
  cancel = 'Keep it',
  danger = true,
  action,
  done,
  failed,
  after,
}: ConfirmedAction<R>): void {
  modals.openConfirmModal({
    title,
    children: <Text size="sm">{body}</Text>,
    labels: { confirm, cancel },
    confirmProps: danger ? { color: 'red' } : {},
    onConfirm: () =>
      void (async () => {
        let result: R;
        try {
          result = await action();
        } catch (error) {
          notifyError(error, failed);
          return;
        }
        notifyDone(typeof done === 'function' ? done(result) : done);
        await after?.(result);
      })(),
  });
}
