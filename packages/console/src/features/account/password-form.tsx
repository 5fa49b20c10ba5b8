import { Button, Group, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormErrors } from '../../components/FormErrors';
import { PasswordField } from '../../components/PasswordField';
import { placeErrors } from '../../lib/errors';
import { notifyDone } from '../../lib/notify';
import { useChangePassword } from './api';
import { submitWith } from '../../lib/form-submit';
import { LeaveGuard } from '../../lib/leave-guard';
import { passwordError } from '../../lib/passwords';

/** A new password, with the rules the API applies (8 to 128 characters, two kinds of character). */
export function PasswordForm() {
  const change = useChangePassword();
  const form = useForm({
    initialValues: { current_password: '', new_password: '', repeat: '' },
    validate: {
      current_password: (value) => (value ? null : 'Enter your current password'),
      new_password: passwordError,
      repeat: (value, values) => (value === values.new_password ? null : 'The two new passwords differ'),
    },
  });
  return (
    <form
      noValidate
      onSubmit={submitWith(form, async (values, refuse) => {
        try {
          await change.mutateAsync({ current_password: values.current_password, new_password: values.new_password });
          form.reset();
          notifyDone('Password changed; your other sessions were signed out');
        } catch (error) {
          refuse(
            placeErrors(error, {
              inputs: ['current_password', 'new_password'],
              codes: { INVALID_PASSWORD: ['current_password', 'This is not your current password'] },
            }),
          );
        }
      })}
    >
      <LeaveGuard form={form} />
      <Stack>
        <PasswordField label="Current password" autoComplete="current-password" required {...form.getInputProps('current_password')} />
        <PasswordField label="New password" autoComplete="new-password" required {...form.getInputProps('new_password')} />
        <PasswordField label="Repeat the new password" autoComplete="new-password" required {...form.getInputProps('repeat')} />
        <FormErrors form={form} title="Password not changed" />
        <Group>
          <Button type="submit" loading={form.submitting}>
            Change password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
