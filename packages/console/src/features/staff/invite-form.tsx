import { ApiError } from '@commerce/client';
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
  /** The account an email already has, when the API names it (it does for a SUPER_ADMIN): the form links straight to it. */
  const [taken, setTaken] = useState<{ email: string; account: string | null } | null>(null);
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
          if (errors.email && 'email' in errors && !errors._form) setTaken({ email, account: accountOf(error) });
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
            {taken.account ? (
              <Anchor renderRoot={(props) => <Link {...props} to="/customers/$userId" params={{ userId: taken.account! }} />}>
                Open the account of <bdi>{taken.email}</bdi>
              </Anchor>
            ) : (
              <Anchor renderRoot={(props) => <Link {...props} to="/customers" search={{ q: taken.email }} />}>
                Find the account of <bdi>{taken.email}</bdi>
              </Anchor>
            )}
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

/** The public ID of the account an EMAIL_TAKEN refusal names, if it names one. */
function accountOf(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.code !== 'EMAIL_TAKEN') return null;
  for (const detail of error.details as readonly { user_public_id?: unknown }[]) {
    if (typeof detail.user_public_id === 'string') return detail.user_public_id;
  }
  return null;
}
