import { Button, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { confirmThen } from '../../lib/confirm';
import { titleCase, when } from '../../lib/format';
import { compact } from '../../lib/search';
import { invitationsQuery, useRevokeInvitation } from './api';
import { InviteForm } from './invite-form';
import type { InvitationsSearch } from './search';

const VIEWS = [
  { value: 'PENDING', label: 'Waiting' },
  { value: 'ACCEPTED', label: 'Accepted' },
  { value: 'EXPIRED', label: 'Expired' },
  { value: 'REVOKED', label: 'Revoked' },
  { value: 'ALL', label: 'All' },
];

/** A SUPER_ADMIN invites people to the staff, sees the invitations waiting for an answer, and revokes one. */
export function InvitationsScreen() {
  const search = useSearch({ from: '/staff/invitations' });
  const navigate = useNavigate({ from: '/invitations' });
  const view = search.state ?? 'PENDING';
  const query = compact({ page: search.page ?? 1, limit: 20, state: view === 'ALL' ? undefined : view });
  const invitations = useQuery(invitationsQuery(query));
  const revoke = useRevokeInvitation();

  type Row = NonNullable<typeof invitations.data>['data'][number];
  const confirmRevoke = (invitation: Row) =>
    confirmThen({
      title: (
        <>
          Revoke the invitation of <bdi>{invitation.email}</bdi>?
        </>
      ),
      body: 'Its link stops working at once. You can invite the same email again later.',
      confirm: 'Revoke',
      action: () => revoke.mutateAsync(invitation.public_id),
      done: (
        <>
          The invitation of <bdi>{invitation.email}</bdi> is revoked
        </>
      ),
      failed: 'Not revoked',
    });
  const columns: Column<Row>[] = [
    { key: 'email', header: 'Email', render: (i) => <bdi>{i.email}</bdi> },
    { key: 'role', header: 'Role', render: (i) => <StatusBadge status={i.role} /> },
    { key: 'state', header: 'State', render: (i) => <StatusBadge status={i.state} /> },
    { key: 'by', header: 'Invited by', render: (i) => <bdi>{i.invited_by_email}</bdi> },
    { key: 'sent', header: 'Sent', render: (i) => when(i.created_at) },
    {
      key: 'until',
      header: 'Link valid until',
      render: (i) => (i.state === 'PENDING' ? when(i.expires_at) : i.accepted_at ? `Accepted ${when(i.accepted_at)}` : '—'),
    },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (i) =>
        i.state === 'PENDING' ? (
          <Button
            size="compact-sm"
            variant="subtle"
            color="red"
            aria-label={`Revoke the invitation of ${i.email}`}
            loading={revoke.isPending && revoke.variables === i.public_id}
            onClick={() => confirmRevoke(i)}
          >
            Revoke
          </Button>
        ) : null,
    },
  ];
  return (
    <>
      <PageHeader title="Invitations" subtitle="People invited to run the store with you; the link in their email sets their password" />
      <Stack gap="md">
        <Paper withBorder p="md" radius="md">
          <Title order={2} size="h4" mb="sm">
            Invite a person
          </Title>
          <InviteForm />
        </Paper>
        <Paper withBorder p="md" radius="md">
          <Title order={2} size="h4" mb="sm">
            Invitations
          </Title>
          <SegmentedControl
            aria-label="Show invitations"
            mb="sm"
            value={view}
            data={VIEWS}
            onChange={(value) =>
              void navigate({ search: { state: value === 'PENDING' ? undefined : (value as InvitationsSearch['state']) } })
            }
          />
          <QueryState query={invitations}>
            {(result) => (
              <DataTable
                label="Invitations"
                columns={columns}
                rows={result.data}
                rowKey={(i) => i.public_id}
                meta={result.meta}
                loading={invitations.isFetching}
                onPage={(page) => void navigate({ search: (previous) => ({ ...previous, page }) })}
                empty={
                  <Text>
                    {view === 'PENDING' ? 'No invitation is waiting for an answer.' : `No ${titleCase(view).toLowerCase()} invitations.`}
                  </Text>
                }
              />
            )}
          </QueryState>
        </Paper>
      </Stack>
    </>
  );
}
