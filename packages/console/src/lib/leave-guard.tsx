import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useBlocker, type ShouldBlockFn } from '@tanstack/react-router';
import { createContext, useContext, useEffect, useRef } from 'react';

/** Asks whether to leave with unsaved changes; resolves true to stay. */
function askToStay(): Promise<boolean> {
  // In a form modal the question is asked in it (lib/form-modal.tsx): a modal over it would take
  // its place and unmount the form, dropping the very changes it asks about.
  const inModal = modalQuestion?.();
  if (inModal) return inModal;
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
 * The open form modal's own question, while one is open: resolves true to stay, or is null when
 * its form has no changes (the changes asked about are on the screen under it).
 */
let modalQuestion: (() => Promise<boolean> | null) | null = null;

export function askInModal(question: (() => Promise<boolean> | null) | null): void {
  modalQuestion = question;
}

/**
 * What each mounted form says: whether it holds changes not yet sent. One question stands for all
 * of them (a stock record has three forms), so a person is asked once per move, however many hold changes.
 */
const guards = new Set<() => boolean>();

/**
 * Guards whose changes the person chose to drop ("Leave without saving"): their screen stays mounted
 * while the next one loads, and a second click or Back meanwhile must not ask about it again.
 */
const released = new WeakSet<() => boolean>();

function anyUnsaved(): boolean {
  for (const unsaved of guards) if (!released.has(unsaved) && unsaved()) return true;
  return false;
}

/** Whether the question is on screen. */
let asking = false;

async function askOnce(): Promise<boolean> {
  // A second move tried while it is open (another link, Back) is refused: the open question decides the first,
  // and the browser's history cannot hold two moves in waiting.
  if (asking) return true;
  asking = true;
  try {
    const stay = await askToStay();
    if (!stay) for (const guard of guards) released.add(guard);
    return stay;
  } finally {
    asking = false;
  }
}

// Module-level, so the router keeps one blocker for the app's whole life rather than one per form per render.
const shouldBlockFn: ShouldBlockFn = ({ current, next }) => (anyUnsaved() && current.pathname !== next.pathname ? askOnce() : false);

/**
 * The one leave question of the app, mounted once under the router and the modals: moving to
 * another screen while a form has changes asks first, and closing or reloading the tab gets the
 * browser's own question. A move within the screen (only its search changes: a page of movements,
 * a filter) keeps the screen and its forms mounted, so it asks nothing.
 */
export function LeaveQuestion(): null {
  useBlocker({ shouldBlockFn, enableBeforeUnload: anyUnsaved });
  return null;
}

/**
 * Where a form in a form modal says whether it has unsaved changes, and learns that the modal is
 * closed (lib/form-modal.tsx provides it): a closed modal's form stays mounted while the modal fades
 * out, and what it held is saved or discarded by then, so it no longer guards anything.
 */
export interface ModalDraftState {
  unsaved: boolean;
  closed: boolean;
}
export const ModalDraft = createContext<ModalDraftState | null>(null);

/**
 * While `unsaved` (a form with changes not yet sent), leaving the screen asks first (LeaveQuestion).
 * A form being sent is not asked about: its screen may move on once it is saved. In a form modal
 * (lib/form-modal.tsx), closing the modal asks too.
 */
export function useLeaveGuard(unsaved: boolean): void {
  const latest = useRef(unsaved);
  latest.current = unsaved;
  const draft = useContext(ModalDraft);
  // Read by the modal when someone closes it; a modal holds one form.
  if (draft) draft.unsaved = unsaved;
  useEffect(() => {
    const guard = () => latest.current && !draft?.closed;
    guards.add(guard);
    return () => void guards.delete(guard);
  }, [draft]);
}

/** useLeaveGuard for a Mantine form: its changes from the values it started with, unless it is being sent. */
export function LeaveGuard({ form }: { form: { isDirty: () => boolean; submitting: boolean } }) {
  useLeaveGuard(form.isDirty() && !form.submitting);
  return null;
}
