import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useBlocker } from '@tanstack/react-router';
import { createContext, useContext, useRef } from 'react';

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
 * The answer to the move being asked about. Every guard on the screen with changes blocks the move
 * (a stock record has three forms), and the router asks them one after another: the first asks,
 * the others take its answer, so a person is asked once per move.
 */
let answer: Promise<boolean> | null = null;

function askOnce(): Promise<boolean> {
  // The router asks the next guard as soon as this answer is in (a microtask); the move is over by the next task.
  answer ??= askToStay().finally(() => setTimeout(() => (answer = null), 0));
  return answer;
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
 * While `unsaved` (a form with changes not yet sent), moving to another screen asks first, and
 * closing or reloading the tab gets the browser's own question. A form being sent is not asked
 * about: its screen may move on once it is saved. A move within the screen (only its search
 * changes: a page of movements, a filter) keeps the screen and its forms mounted, so it asks
 * nothing. In a form modal (lib/form-modal.tsx), closing the modal asks too.
 */
export function useLeaveGuard(unsaved: boolean): void {
  const latest = useRef(unsaved);
  latest.current = unsaved;
  const draft = useContext(ModalDraft);
  // Read by the modal when someone closes it; a modal holds one form.
  if (draft) draft.unsaved = unsaved;
  useBlocker({
    shouldBlockFn: ({ current, next }) => (latest.current && !draft?.closed && current.pathname !== next.pathname ? askOnce() : false),
    enableBeforeUnload: () => latest.current && !draft?.closed,
  });
}

/** useLeaveGuard for a Mantine form: its changes from the values it started with, unless it is being sent. */
export function LeaveGuard({ form }: { form: { isDirty: () => boolean; submitting: boolean } }) {
  useLeaveGuard(form.isDirty() && !form.submitting);
  return null;
}
