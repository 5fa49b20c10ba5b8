import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { FORM_ERROR } from '../lib/errors';

/**
 * What the API refused that belongs to no input of the form (see placeErrors), shown near the
 * submit button and announced, so no refusal goes unseen.
 */
export function FormErrors({ form, title = 'Not saved' }: { form: { errors: Record<string, ReactNode> }; title?: string }) {
  const message = form.errors[FORM_ERROR];
  if (!message) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title={title} role="alert">
      {message}
    </Alert>
  );
}
