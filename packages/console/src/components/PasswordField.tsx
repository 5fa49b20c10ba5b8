import { PasswordInput, type PasswordInputProps } from '@mantine/core';

/**
 * Mantine's PasswordInput, marked `aria-invalid` while it shows an error. Mantine leaves the mark off
 * its inner input, so a screen reader did not say the password was refused, and a refused form could
 * not move focus to it (focusFirstError in lib/form-submit.ts looks for the mark).
 */
export function PasswordField(props: PasswordInputProps) {
  return <PasswordInput {...props} aria-invalid={props.error ? true : undefined} />;
}
