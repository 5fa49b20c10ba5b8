import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useBlocker } from '@tanstack/react-router';
import { useRef } from 'react';

/** Asks whether to leave with unsaved changes; resolves true to stay. */
function askToStay(): Promise<boolean> {
  return new Promise((resolve) =>
    modals.openConfirmModal({
      title: 'Leave without saving?',
      children: <Text size="sm">Your changes on this screen are not saved. Leaving drops them.</Text>,
      labels: { confirm: 'Leave without saving', cancel: 'Stay' },
      confirmProps: { color: 'red' },
      onConfirm: () => resolve(false),
      onCancel: () => resolve(true),
      onClose: () => resolve(true),
    }),
  );
}

/**
 * While `unsaved` (a form with changes not yet sent), moving to another screen asks first, and
 * closing or reloading the tab gets the browser's own question. A form being sent is not asked
 * about: its screen may move on once it is saved.
 */
export function useLeaveGuard(unsaved: boolean): void {
  const latest = useRef(unsaved);
  latest.current = unsaved;
  useBlocker({
    shouldBlockFn: () => (latest.current ? askToStay() : false),
    enableBeforeUnload: () => latest.current,
  });
}

/** useLeaveGuard for a Mantine form: its changes from the values it started with, unless it is being sent. */
export function LeaveGuard({ form }: { form: { isDirty: () => boolean; submitting: boolean } }) {
  useLeaveGuard(form.isDirty() && !form.submitting);
  return null;
}
