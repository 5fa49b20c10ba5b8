import { Alert, Button, Group, Text } from '@mantine/core';
import { randomId, useWindowEvent } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { AskInFormProvider, useQuestionInModal } from './confirm-question';
import { askInModal, ModalDraft, type ModalDraftState } from './leave-guard';

/** What closing the modal does; the frame sets it once mounted, as the modal's props are fixed when it opens. */
interface Closer {
  close: () => void;
}

const ModalClose = createContext<(() => void) | null>(null);

/** Closes the modal a form is in (its Cancel or Back button), asking first when it has changes; any other modal just closes. */
export function useCloseModal(): () => void {
  return useContext(ModalClose) ?? (() => modals.closeAll());
}

/**
 * Opens a form in a modal that never drops typed changes unasked: closing it with changes (Escape,
 * the close button, a click outside, its Cancel button, a move to another screen) asks "Discard
 * your changes?" inside the modal, and Keep editing leaves the form as it was. The question is not
 * a modal of its own: Mantine shows one modal at a time, and one over the form would unmount it.
 * The form says what is unsaved with <LeaveGuard form={form} />, as a form on a screen does; once
 * saved it closes the modal itself (modals.closeAll()), which asks nothing.
 */
export function openFormModal({ title, size, children }: { title: ReactNode; size?: string; children: ReactNode }): void {
  const modalId = randomId('form-modal-');
  const closer: Closer = { close: () => modals.close(modalId) };
  const draft: ModalDraftState = { unsaved: false, closed: false };
  modals.open({
    modalId,
    title,
    ...(size ? { size } : {}),
    // However it closes (saved, discarded, closed clean), its form guards nothing from here on.
    onClose: () => (draft.closed = true),
    // Every way out goes through closer.close: Escape is the frame's, a click outside the overlay's,
    // and the close button's own click is stopped before it closes the modal unasked.
    closeOnEscape: false,
    closeOnClickOutside: false,
    overlayProps: { onClick: () => closer.close() },
    closeButtonProps: {
      'aria-label': 'Close',
      onClickCapture: (event) => {
        event.stopPropagation();
        closer.close();
      },
    },
    children: (
      <FormModalFrame modalId={modalId} closer={closer} draft={draft}>
        {children}
      </FormModalFrame>
    ),
  });
}

function FormModalFrame({
  modalId,
  closer,
  draft,
  children,
}: {
  modalId: string;
  closer: Closer;
  draft: ModalDraftState;
  children: ReactNode;
}) {
  const [asking, setAsking] = useState(false);
  /** The open question's answer (true: discard) and the element focused before it, to go back to. */
  const question = useRef<{ answer: Promise<boolean>; resolve: (discard: boolean) => void; from: Element | null } | null>(null);
  const keepEditing = useRef<HTMLButtonElement>(null);
  /** A question the form asks before it sends (useAsk), shown here rather than in a modal over this one. */
  const confirmation = useQuestionInModal();

  /** Resolves true to discard the changes; asked again while open, the same question. */
  const ask = (): Promise<boolean> => {
    if (!question.current) {
      let resolve!: (discard: boolean) => void;
      const answer = new Promise<boolean>((r) => (resolve = r));
      question.current = { answer, resolve, from: document.activeElement };
      setAsking(true);
    }
    return question.current.answer;
  };
  const answer = (discard: boolean) => {
    const open = question.current;
    if (!open) return;
    question.current = null;
    setAsking(false);
    if (discard) modals.close(modalId);
    else if (open.from instanceof HTMLElement) open.from.focus();
    open.resolve(discard);
  };

  useEffect(() => {
    closer.close = () => (draft.unsaved ? void ask() : modals.close(modalId));
    // A move to another screen asks here while the form has changes (see askToStay); Stay is Keep editing.
    askInModal(() => (draft.unsaved && !draft.closed ? ask().then((discard) => !discard) : null));
    return () => askInModal(null);
  });
  // Unmounted while asking (a modal opened over this one takes its place): the answer is to keep the form.
  useEffect(() => () => question.current?.resolve(false), []);
  useEffect(() => {
    if (asking) keepEditing.current?.focus();
  }, [asking]);
  useWindowEvent(
    'keydown',
    (event) => {
      if (event.key !== 'Escape' || event.isComposing || draft.closed) return;
      // An open dropdown in the form (a Select) takes its Escape, as in any Mantine modal.
      if (event.target instanceof Element && event.target.getAttribute('data-mantine-stop-propagation') === 'true') return;
      if (question.current) answer(false);
      else if (confirmation.asking) confirmation.dismiss();
      else closer.close();
    },
    { capture: true },
  );

  return (
    <ModalDraft value={draft}>
      <ModalClose value={() => closer.close()}>
        {asking ? (
          <Alert color="yellow" variant="light" title="Discard your changes?" mb="md">
            <Text size="sm" mb="sm">
              What you typed in this form is not saved. Discarding drops it.
            </Text>
            <Group gap="xs">
              <Button ref={keepEditing} variant="default" onClick={() => answer(false)}>
                Keep editing
              </Button>
              <Button color="red" onClick={() => answer(true)}>
                Discard changes
              </Button>
            </Group>
          </Alert>
        ) : null}
        {confirmation.element}
        <AskInFormProvider value={confirmation.ask}>{children}</AskInFormProvider>
      </ModalClose>
    </ModalDraft>
  );
}
