import { Alert, Button, Center, Group, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ApiError } from '@commerce/client';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, type ReactNode } from 'react';
import { FormErrors } from '../../components/FormErrors';
import { PasswordField } from '../../components/PasswordField';
import { describe, placeErrors } from '../../lib/errors';
import { titleCase, when } from '../../lib/format';
import { submitWith } from '../../lib/form-submit';
import { notifyDone } from '../../lib/notify';
import { passwordError } from '../../lib/passwords';
import { invitationPreviewQuery, useAcceptInvitation } from './api';

function Frame({ children }: { children: ReactNode }) {
  return (
    <Center mih="100vh" bg="gray.0" p="md">
      <Paper component="main" withBorder shadow="sm" p="xl" radius="md" w="100%" maw={460}>
        <Stack>
          <Title order={1} size="h2">
            Join the store’s staff
          </Title>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}

/** Why an invitation link does not work, as the API says (unknown, or used, expired or revoked). */
function linkProblem(error: unknown): string {
  if (ApiError.is(error) && error.status === 404) return 'This link is not a valid invitation. Check that it was copied whole.';
  if (ApiError.is(error) && error.code === 'TOKEN_EXPIRED')
    return 'This invitation was already used, has expired or was revoked. Ask whoever invited you for a new one.';
  return describe(error);
}

/**
 * The page an invitation's email links to (public: the person has no account yet). It says who the
 * invitation is for and as what, then takes a name and a password; accepting makes the staff account
 * and signs it in, on the dashboard.
 */
export function AcceptInvitationScreen() {
  const { token } = useSearch({ from: '/accept-invitation' });
  const navigate = useNavigate();
  const preview = useQuery({ ...invitationPreviewQuery(token ?? ''), enabled: Boolean(token), retry: false });
  const accept = useAcceptInvitation();
  const form = useForm({
    initialValues: { first_name: '', last_name: '', password: '', repeat: '' },
    validate: {
      first_name: (v) => (v.trim() === '' ? 'Your first name' : v.length > 100 ? 'At most 100 characters' : null),
      last_name: (v) => (v.trim() === '' ? 'Your last name' : v.length > 100 ? 'At most 100 characters' : null),
      password: passwordError,
      repeat: (v, values) => (v === values.password ? null : 'The two passwords differ'),
    },
  });
  useEffect(() => {
    document.title = 'Join the staff · Commerce console';
  }, []);

  if (!token) {
    return (
      <Frame>
        <Alert color="red" role="alert" title="No invitation in this link">
          Open the link from your invitation email as it is.
        </Alert>
      </Frame>
    );
  }
  if (preview.isPending) {
    return (
      <Frame>
        <Loader size="sm" aria-label="Loading" />
      </Frame>
    );
  }
  if (preview.isError) {
    return (
      <Frame>
        <Alert color="red" role="alert" title="This invitation cannot be used">
          {linkProblem(preview.error)}
        </Alert>
      </Frame>
    );
  }
  const invitation = preview.data;
  return (
    <Frame>
      <Text size="sm">
        You are invited to run the store as <b>{titleCase(invitation.role).toLowerCase()}</b>, with the email <bdi>{invitation.email}</bdi>.
        Choose the name your colleagues see and a password. The link works until {when(invitation.expires_at)}.
      </Text>
      <form
        noValidate
        onSubmit={submitWith(form, async (values, refuse) => {
          try {
            await accept.mutateAsync({
              token,
              first_name: values.first_name.trim(),
              last_name: values.last_name.trim(),
              password: values.password,
            });
          } catch (error) {
            refuse(placeErrors(error, { inputs: ['first_name', 'last_name', 'password'], label: () => undefined }));
            return;
          }
          notifyDone('Welcome: your staff account is ready');
          await navigate({ to: '/', replace: true });
        })}
      >
        <Stack>
          <Group grow align="flex-start">
            <TextInput label="First name" required autoComplete="given-name" maxLength={100} {...form.getInputProps('first_name')} />
            <TextInput label="Last name" required autoComplete="family-name" maxLength={100} {...form.getInputProps('last_name')} />
          </Group>
          <PasswordField
            label="Password"
            required
            autoComplete="new-password"
            description="8 to 128 characters, two kinds at least"
            {...form.getInputProps('password')}
          />
          <PasswordField label="Repeat the password" required autoComplete="new-password" {...form.getInputProps('repeat')} />
          <FormErrors form={form} title="Not accepted" />
          <Button type="submit" loading={form.submitting} fullWidth>
            Join the staff
          </Button>
        </Stack>
      </form>
    </Frame>
  );
}
