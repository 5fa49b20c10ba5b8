import { Alert, Button, Group, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';

/** A yes-or-no question before a change ("Sell SKU-1 for nothing?"). */
export interface Question {
  title: string;
  body: ReactNode;
  /** The button that goes on. */
  confirm: string;
  /** The button that goes back to the form. */
  cancel: string;
}

type Ask = (question: Question) => Promise<boolean>;

const AskInForm = createContext<Ask | null>(null);

/** Asks in a confirm modal; resolves true to go on. */
function askInConfirmModal(question: Question): Promise<boolean> {
  return new Promise((resolve) =>
    modals.openConfirmModal({
      title: question.title,
      children: <Text size="sm">{question.body}</Text>,
      labels: { confirm: question.confirm, cancel: question.cancel },
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    }),
  );
}

/**
 * How a form asks before it sends: in a confirm modal on a screen, and inside the modal itself when
 * the form is in one (lib/form-modal.tsx), since Mantine shows one modal at a time and a question
 * opened over the form would unmount it, and with it what the person typed.
 */
export function useAsk(): Ask {
  return useContext(AskInForm) ?? askInConfirmModal;
}

/**
 * The question a form modal shows above its form: `ask` opens it, `element` is what to render,
 * `dismiss` answers no (Escape, the modal closing). Focus goes to the answer that goes back, and
 * returns where it was.
 */
export function useQuestionInModal() {
  const [open, setOpen] = useState<(Question & { resolve: (yes: boolean) => void; from: Element | null }) | null>(null);
  const back = useRef<HTMLButtonElement>(null);
  const settle = (yes: boolean) => {
    if (!open) return;
    setOpen(null);
    if (!yes && open.from instanceof HTMLElement) open.from.focus();
    open.resolve(yes);
  };
  const latest = useRef(open);
  latest.current = open;
  const ask: Ask = (question) =>
    new Promise((resolve) => {
      // A question asked again while open replaces it: the first is answered no.
      latest.current?.resolve(false);
      setOpen({ ...question, resolve, from: document.activeElement });
    });
  useEffect(() => {
    if (open) back.current?.focus();
  }, [open]);
  // Unmounted while asking: nothing goes on.
  useEffect(() => () => latest.current?.resolve(false), []);

  const element = open ? (
    <Alert color="yellow" variant="light" title={open.title} mb="md">
      <Text size="sm" mb="sm">
        {open.body}
      </Text>
      <Group gap="xs">
        <Button ref={back} variant="default" onClick={() => settle(false)}>
          {open.cancel}
        </Button>
        <Button onClick={() => settle(true)}>{open.confirm}</Button>
      </Group>
    </Alert>
  ) : null;
  return { ask, element, asking: open !== null, dismiss: () => settle(false) };
}

export const AskInFormProvider = AskInForm.Provider;
