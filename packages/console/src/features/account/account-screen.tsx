import { Badge, Button, Grid, Group, Paper, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useQuery } from '@tanstack/react-query';
import { useStaff } from '../../api/session';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { TableFrame } from '../../components/TableFrame';
import { when } from '../../lib/format';
import { notifyDone, notifyError } from '../../lib/notify';
import { sessionsQuery, useRevokeSessions } from './api';
import { PasswordForm } from './password-form';

export function AccountScreen() {
  const me = useStaff();
  const sessions = useQuery(sessionsQuery);
  const revoke = useRevokeSessions();
  /** One session (by ID), or every other one (null). */
  const signOut = (id: string | null) =>
    void revoke.mutateAsync(id).then(
      () => notifyDone(id ? 'Session signed out' : 'Every other session signed out'),
      (error: unknown) => notifyError(error, 'Not signed out'),
    );

  return (
    <>
      <PageHeader
        title="Your account"
        subtitle={
          <>
            <bdi>{me.first_name}</bdi> <bdi>{me.last_name}</bdi> · <bdi>{me.email}</bdi>
          </>
        }
      />
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
                    onConfirm: () => signOut(null),
                  })
                }
              >
                Sign out all others
              </Button>
            </Group>
            <QueryState query={sessions}>
              {(result) => (
                <TableFrame label="Your sessions" minWidth={600}>
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
                            {session.user_agent ? <bdi>{session.user_agent}</bdi> : 'Unknown'}
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
                                onClick={() => signOut(session.public_id)}
                              >
                                Sign out
                              </Button>
                            )}
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </TableFrame>
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
