import { Alert, Button, Group } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { FORM_ERROR } from '../lib/errors';
import { useCloseModal } from '../lib/form-modal';

/**
 * What the API refused that belongs to no input of the form (see placeErrors), shown near the
 * submit button and announced, so no refusal goes unseen.
 */
export function FormErrors({ form, title = 'Not saved' }: { form: { errors: Record<string, ReactNode> }; title?: string }) {
  const message = form.errors[FORM_ERROR];
  if (!message) return null;
  return (
    // Focusable, so a refused form can move focus here when the refusal belongs to no field (lib/form-submit.ts).
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle size={18} aria-hidden />}
      title={title}
      role="alert"
      tabIndex={-1}
      data-form-error
    >
      {message}
    </Alert>
  );
}

/**
 * The foot of a form in a modal: what the API refused (FormErrors), then a way
 * back that closes the modal (asking first if the form has changes, see openFormModal)
 * and the submit button, busy while it sends.
 */
export function ModalFormFooter({
  form,
  submit,
  errorsTitle,
  back = 'Cancel',
}: {
  form: { errors: Record<string, ReactNode>; submitting: boolean };
  submit: ReactNode;
  errorsTitle?: string;
  back?: string;
}) {
  const close = useCloseModal();
  return (
    <>
      <FormErrors form={form} {...(errorsTitle ? { title: errorsTitle } : {})} />
      <Group justify="flex-end">
        <Button variant="default" onClick={close}>
          {back}
        </Button>
        <Button type="submit" loading={form.submitting}>
          {submit}
        </Button>
      </Group>
    </>
  );
}
