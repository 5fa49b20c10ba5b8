import { Anchor, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { STAFF_ROLES, type StaffRole } from '../../api/domain';
import { FormErrors } from '../../components/FormErrors';
import { placeErrors } from '../../lib/errors';
import { titleCase } from '../../lib/format';
import { submitWith } from '../../lib/form-submit';
import { LeaveGuard } from '../../lib/leave-guard';
import { notifyDone } from '../../lib/notify';
import { useInvite } from './api';

/**
 * Invites a person by email. They get a link, valid for a limited time, that sets their name and
 * password; no customer account is needed first. An email that already has an account is refused:
 * that account's role is changed on its own screen, which the form links to.
 */
export function InviteForm() {
  const invite = useInvite();
  const [taken, setTaken] = useState<string | null>(null);
  const form = useForm({
    initialValues: { email: '', role: 'ADMIN' as StaffRole },
    validate: { email: (value) => (/^\S+@\S+\.\S+$/.test(value.trim()) ? null : 'An email address, like name@example.com') },
  });
  return (
    <form
      noValidate
      onSubmit={submitWith(form, async (values, refuse) => {
        setTaken(null);
        const email = values.email.trim();
        try {
          await invite.mutateAsync({ email, role: values.role });
        } catch (error) {
          const errors = placeErrors(error, {
            inputs: ['email', 'role'],
            codes: { EMAIL_TAKEN: ['email', 'This email already has an account: change its role on the account’s screen'] },
          });
          if (errors.email && 'email' in errors && !errors._form) setTaken(email);
          refuse(errors);
          return;
        }
        form.reset();
        notifyDone(
          <>
            Invitation sent to <bdi>{email}</bdi>
          </>,
        );
      })}
    >
      <LeaveGuard form={form} />
      <Stack>
        <Group align="flex-start" wrap="wrap">
          <TextInput label="Email" type="email" required w={320} maxLength={254} {...form.getInputProps('email')} />
          <Select
            label="Role"
            allowDeselect={false}
            w={180}
            data={STAFF_ROLES.map((role) => ({ value: role, label: titleCase(role) }))}
            {...form.getInputProps('role')}
          />
        </Group>
        {taken ? (
          <Text size="sm">
            <Anchor renderRoot={(props) => <Link {...props} to="/customers" search={{ q: taken }} />}>
              Find the account of <bdi>{taken}</bdi>
            </Anchor>
          </Text>
        ) : null}
        <FormErrors form={form} title="Not invited" />
        <Group>
          <Button type="submit" loading={form.submitting}>
            Send invitation
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
