import { Anchor, Button, Modal, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useNavigate, useRouter } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { useSignInAgain, type SessionUser } from '../api/session';
import { FormErrors } from './FormErrors';
import { PasswordField } from './PasswordField';
import { FORM_ERROR, placeErrors } from '../lib/errors';
import { submitWith } from '../lib/form-submit';

/**
 * Over the screen whose session ended: the same person signs in again and carries on, the screen and
 * what they typed on it as they left it. It cannot be dismissed (nothing under it works signed out);
 * "Sign in as someone else" goes to the sign-in screen (asking first if the screen has unsaved changes),
 * where a sign-in forgets everything read as the person before.
 */
export function SignInAgain({ ended }: { ended: SessionUser }) {
  const signIn = useSignInAgain();
  const navigate = useNavigate();
  const router = useRouter();
  const password = useRef<HTMLInputElement>(null);
  // At the password once asked: whatever the screen under it did with the keyboard as its write was refused.
  useEffect(() => {
    window.requestAnimationFrame(() => password.current?.focus());
  }, [ended]);
  const form = useForm({
    initialValues: { password: '' },
    validate: { password: (value) => (value.length > 0 ? null : 'Enter your password') },
  });

  const submit = submitWith(form, async (values, refuse) => {
    try {
      const { staff } = await signIn.mutateAsync({ email: ended.email, password: values.password });
      if (staff) form.reset();
      else refuse({ [FORM_ERROR]: 'This account no longer has access to the console. Sign in as someone else.' });
    } catch (error) {
      refuse(placeErrors(error, { inputs: ['password'] }));
    }
  });

  return (
    <Modal
      opened
      onClose={() => undefined}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      title="Your session has ended"
      centered
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">
            You were signed out after a while away, or from another device. Sign in again as <strong>{ended.email}</strong> to carry on:
            this screen, and anything you typed on it, stays as it is.
          </Text>
          <FormErrors form={form} title="Not signed in" />
          <PasswordField
            label="Password"
            autoComplete="current-password"
            required
            data-autofocus
            ref={password}
            {...form.getInputProps('password')}
          />
          <Button type="submit" loading={form.submitting} fullWidth>
            Sign in
          </Button>
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => void navigate({ to: '/sign-in', search: { redirect: router.state.location.href } })}
          >
            Sign in as someone else
          </Anchor>
        </Stack>
      </form>
    </Modal>
  );
}
