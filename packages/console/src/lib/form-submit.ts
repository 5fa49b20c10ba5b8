import type { FormErrors } from '@mantine/form';
import type { SyntheticEvent } from 'react';
import { flushSync } from 'react-dom';

/** What a console form hands its submit handler: its values, and how to show the API's refusal. */
export type Refuse = (errors: FormErrors) => void;

interface SubmittableForm<Values> {
  onSubmit: (
    handle: (values: Values, event: SyntheticEvent<HTMLFormElement> | undefined) => void | Promise<unknown>,
    onInvalid?: (errors: FormErrors, values: Values, event: SyntheticEvent<HTMLFormElement> | undefined) => void,
  ) => (event?: SyntheticEvent<HTMLFormElement>) => void;
  setErrors: (errors: FormErrors) => void;
}

/**
 * Focus on the form's first field in error, or else on its alert (FormErrors, marked
 * `data-form-error`), so a person who submitted hears and sees what was refused where it was.
 */
export function focusFirstError(form: HTMLFormElement | null | undefined): void {
  if (!form?.isConnected) return;
  // A dialog opened over the form meanwhile (signing in again after the session ended) keeps the keyboard.
  const dialog = form.ownerDocument.activeElement?.closest('[role="dialog"]');
  if (dialog && !dialog.contains(form)) return;
  const target = form.querySelector<HTMLElement>('[aria-invalid="true"]') ?? form.querySelector<HTMLElement>('[data-form-error]');
  target?.focus();
}

/**
 * A form's onSubmit: the handler gets the values and `refuse`, which shows the API's refusal (from
 * placeErrors) and moves focus to its first field in error; a refusal of the form's own checks moves
 * focus the same way. The errors are committed first (flushSync), so the fields in error are marked.
 */
export function submitWith<Values>(form: SubmittableForm<Values>, handler: (values: Values, refuse: Refuse) => Promise<unknown> | void) {
  return form.onSubmit(
    (values, event) => {
      const element = event?.currentTarget;
      return handler(values, (errors) => {
        flushSync(() => form.setErrors(errors));
        focusFirstError(element);
      });
    },
    (errors, _values, event) => {
      flushSync(() => form.setErrors(errors));
      focusFirstError(event?.currentTarget);
    },
  );
}
