import { Badge, Button, Grid, Group, Paper, PasswordInput, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api';
import { FormErrors } from '../components/FormErrors';
import { PageHeader } from '../components/PageHeader';
import { QueryState } from '../components/QueryState';
import { notifyDone, notifyError, placeErrors } from '../lib/errors';
import { when } from '../lib/format';
import { useStaff } from '../session';

function PasswordForm() {
  const queryClient = useQueryClient();
  const form = useForm({
    initialValues: { current_password: '', new_password: '', repeat: '' },
    validate: {
      current_password: (value) => (value ? null : 'Enter your current password'),
      new_password: (value) =>
        value.length < 8 || value.length > 128
          ? '8 to 128 characters'
          : [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/].filter((re) => re.test(value)).length < 2
            ? 'Mix at least two kinds: letters, capitals, digits, symbols'
            : null,
      repeat: (value, values) => (value === values.new_password ? null : 'The two new passwords differ'),
    },
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit(async (values) => {
        try {
          await api.PATCH('/api/v1/users/me/password', {
            body: { current_password: values.current_password, new_password: values.new_password },
          });
          form.reset();
          void queryClient.invalidateQueries({ queryKey: ['sessions'] });
          notifyDone('Password changed; your other sessions were signed out');
        } catch (error) {
          form.setErrors(
            placeErrors(error, {
              inputs: ['current_password', 'new_password'],
              codes: { INVALID_PASSWORD: ['current_password', 'This is not your current password'] },
            }),
          );
        }
      })}
    >
      <Stack>
        <PasswordInput label="Current password" autoComplete="current-password" required {...form.getInputProps('current_password')} />
        <PasswordInput label="New password" autoComplete="new-password" required {...form.getInputProps('new_password')} />
        <PasswordInput label="Repeat the new password" autoComplete="new-password" required {...form.getInputProps('repeat')} />
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

export function AccountScreen() {
  const me = useStaff();
  const queryClient = useQueryClient();
  const sessions = useQuery({
    queryKey: ['sessions'],
    queryFn: async () => api.GET('/api/v1/auth/sessions', { params: { query: { page: 1, limit: 100 } } }),
  });
  const revoke = useMutation({
    mutationFn: async (id: string | null) =>
      id
        ? api.DELETE('/api/v1/auth/sessions/{session_public_id}', { params: { path: { session_public_id: id } } })
        : api.DELETE('/api/v1/auth/sessions'),
    onSuccess: (_result, id) => {
      void queryClient.invalidateQueries({ queryKey: ['sessions'] });
      notifyDone(id ? 'Session signed out' : 'Every other session signed out');
    },
    onError: (error) => notifyError(error, 'Not signed out'),
  });

  return (
    <>
      <PageHeader title="Your account" subtitle={`${me.first_name} ${me.last_name} · ${me.email}`} />
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Paper withBorder p="md" radius="md">
            <Group justify="space-between" mb="sm">
              <Title order={2} size="h4">
                Sessions
              </Title>
              <Button
                variant="light"
                color="red"
                size="xs"
                onClick={() =>
                  modals.openConfirmModal({
                    title: 'Sign out every other session?',
                    children: <Text size="sm">Every browser and device but this one will have to sign in again.</Text>,
                    labels: { confirm: 'Sign them out', cancel: 'Back' },
                    confirmProps: { color: 'red' },
                    onConfirm: () => revoke.mutate(null),
                  })
                }
              >
                Sign out all others
              </Button>
            </Group>
            <QueryState query={sessions}>
              {(result) => (
                <Table aria-label="Your sessions">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Browser</Table.Th>
                      <Table.Th>Address</Table.Th>
                      <Table.Th>Signed in</Table.Th>
                      <Table.Th>Last seen</Table.Th>
                      <Table.Th>
                        <VisuallyHidden>Actions</VisuallyHidden>
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {result.data.map((session) => (
                      <Table.Tr key={session.public_id}>
                        <Table.Td maw={260} style={{ overflowWrap: 'anywhere' }}>
                          {session.user_agent ?? 'Unknown'}
                        </Table.Td>
                        <Table.Td>{session.ip ?? '—'}</Table.Td>
                        <Table.Td>{when(session.created_at)}</Table.Td>
                        <Table.Td>{when(session.last_seen_at)}</Table.Td>
                        <Table.Td ta="right">
                          {session.current ? (
                            <Badge variant="light" bg="teal.0" c="teal.9">
                              This session
                            </Badge>
                          ) : (
                            <Button
                              size="xs"
                              variant="subtle"
                              color="red"
                              aria-label={`Sign out the session from ${session.ip ?? 'an unknown address'}, signed in ${when(session.created_at)}`}
                              loading={revoke.isPending && revoke.variables === session.public_id}
                              onClick={() => revoke.mutate(session.public_id)}
                            >
                              Sign out
                            </Button>
                          )}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </QueryState>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Paper withBorder p="md" radius="md">
            <Title order={2} size="h4" mb="sm">
              Password
            </Title>
            <PasswordForm />
          </Paper>
        </Grid.Col>
      </Grid>
    </>
  );
}
