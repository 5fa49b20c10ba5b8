import { Anchor, Button, Grid, Group, Paper, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { api } from '../api';
import { DataTable, type Column } from '../components/DataTable';
import { PageHeader } from '../components/PageHeader';
import { QueryState } from '../components/QueryState';
import { StatusBadge } from '../components/StatusBadge';
import { describe, notifyDone, notifyError } from '../lib/errors';
import { count, day, money, titleCase, when } from '../lib/format';
import { ROLES } from '../routes/customers';
import { useStaff } from '../session';

type Role = (typeof ROLES)[number];

/**
 * Why this staff member may not suspend or reactivate `user`, or null when they may. The server's
 * rule (checkReach in src/admin-users/service.ts): never oneself; nobody acts on a SUPER_ADMIN (it
 * must be demoted first); an ADMIN acts on customer accounts only.
 */
export function suspensionBlockedBecause(me: { public_id: string; role: Role }, user: { public_id: string; role: Role }): string | null {
  if (user.public_id === me.public_id) return 'This is your own account';
  if (me.role !== 'SUPER_ADMIN' && user.role !== 'CUSTOMER') return 'Admins can suspend or reactivate customer accounts only';
  if (user.role === 'SUPER_ADMIN') return 'A super admin cannot be suspended or reactivated: change the role first';
  return null;
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text>{children}</Text>
    </div>
  );
}

export function CustomerScreen() {
  const { userId } = useParams({ from: '/staff/customers/$userId' });
  const search = useSearch({ from: '/staff/customers/$userId' });
  const navigate = useNavigate({ from: '/customers/$userId' });
  const me = useStaff();
  const queryClient = useQueryClient();
  const [role, setRole] = useState<Role | null>(null);

  const account = useQuery({
    queryKey: ['account', userId],
    queryFn: async () => (await api.GET('/api/v1/admin/users/{user_public_id}', { params: { path: { user_public_id: userId } } })).data,
  });
  const ordersQuery = { page: search.page ?? 1, limit: 10, customer: userId, sort: '-placed_at' as const };
  const orders = useQuery({
    queryKey: ['orders', ordersQuery],
    queryFn: async () => api.GET('/api/v1/admin/orders', { params: { query: ordersQuery } }),
    placeholderData: keepPreviousData,
  });

  const after = (message: string) => {
    void queryClient.invalidateQueries({ queryKey: ['account', userId] });
    void queryClient.invalidateQueries({ queryKey: ['accounts'] });
    notifyDone(message);
  };
  const suspension = useMutation({
    mutationFn: async (suspend: boolean) => {
      const path = { user_public_id: userId };
      return suspend
        ? api.POST('/api/v1/admin/users/{user_public_id}/suspend', { params: { path } })
        : api.POST('/api/v1/admin/users/{user_public_id}/activate', { params: { path } });
    },
    onSuccess: (_result, suspend) => after(suspend ? 'Account suspended: its sessions have ended' : 'Account reactivated'),
    onError: (error) => notifyError(error, 'Not changed'),
  });
  const roleChange = useMutation({
    mutationFn: async (next: Role) =>
      api.PATCH('/api/v1/admin/users/{user_public_id}/role', { params: { path: { user_public_id: userId } }, body: { role: next } }),
    onSuccess: (_result, next) => {
      setRole(null);
      after(`Role changed to ${titleCase(next)}; the account's sessions have ended`);
    },
    onError: (error) => notifyError(error, 'Role not changed'),
  });

  type OrderRow = NonNullable<typeof orders.data>['data'][number];
  const columns: Column<OrderRow>[] = [
    {
      key: 'number',
      header: 'Order',
      nowrap: true,
      render: (order) => (
        <Anchor fw={600} renderRoot={(props) => <Link {...props} to="/orders/$orderId" params={{ orderId: order.public_id }} />}>
          {order.order_number}
        </Anchor>
      ),
    },
    { key: 'placed', header: 'Placed', render: (order) => when(order.placed_at) },
    { key: 'status', header: 'Status', render: (order) => <StatusBadge status={order.status} /> },
    { key: 'total', header: 'Total', align: 'right', render: (order) => money(order.total, order.currency) },
  ];

  return (
    <QueryState query={account}>
      {(user) => {
        const self = user.public_id === me.public_id;
        const suspended = user.status === 'SUSPENDED';
        const blocked = suspensionBlockedBecause(me, user);
        return (
          <>
            <PageHeader
              title={`${user.first_name} ${user.last_name}`}
              subtitle={
                <Group gap="xs" component="span">
                  <StatusBadge status={user.role} /> <StatusBadge status={user.status} /> {user.email}
                </Group>
              }
              actions={
                blocked ? (
                  <Text size="sm" c="dimmed">
                    {blocked}
                  </Text>
                ) : (
                  <Button
                    color={suspended ? undefined : 'red'}
                    variant={suspended ? 'filled' : 'light'}
                    loading={suspension.isPending}
                    onClick={() =>
                      modals.openConfirmModal({
                        title: suspended ? `Reactivate ${user.email}?` : `Suspend ${user.email}?`,
                        children: (
                          <Text size="sm">
                            {suspended
                              ? 'They can sign in again. Their orders are unchanged.'
                              : 'Every session of the account ends at once and it cannot sign in until reactivated. Orders are unchanged.'}
                          </Text>
                        ),
                        labels: { confirm: suspended ? 'Reactivate' : 'Suspend', cancel: 'Back' },
                        confirmProps: suspended ? {} : { color: 'red' },
                        onConfirm: () => suspension.mutate(!suspended),
                      })
                    }
                  >
                    {suspended ? 'Reactivate' : 'Suspend'}
                  </Button>
                )
              }
            />
            <Anchor size="sm" mb="md" display="inline-block" renderRoot={(props) => <Link {...props} to="/customers" />}>
              ← All accounts
            </Anchor>
            <Grid gap="md">
              <Grid.Col span={{ base: 12, lg: 4 }}>
                <Stack>
                  <Paper withBorder p="md" radius="md">
                    <Title order={2} size="h4" mb="sm">
                      Profile
                    </Title>
                    <SimpleGrid cols={2} spacing="sm">
                      <Fact label="Email">{user.email}</Fact>
                      <Fact label="Verified">{user.email_verified ? 'Yes' : 'Not yet'}</Fact>
                      <Fact label="Phone">{user.phone_number ?? '—'}</Fact>
                      <Fact label="Joined">{day(user.created_at)}</Fact>
                      <Fact label="Orders">{count(user.order_count)}</Fact>
                      <Fact label="Lifetime spend">{money(user.lifetime_spend)}</Fact>
                    </SimpleGrid>
                  </Paper>
                  {me.isSuper && !self ? (
                    <Paper withBorder p="md" radius="md">
                      <Title order={2} size="h4" mb="sm">
                        Role
                      </Title>
                      <Group align="flex-end">
                        <Select
                          label="Role"
                          allowDeselect={false}
                          data={ROLES.map((r) => ({ value: r, label: titleCase(r) }))}
                          value={role ?? user.role}
                          onChange={(value) => setRole(value as Role)}
                          w={180}
                        />
                        <Button
                          disabled={!role || role === user.role}
                          loading={roleChange.isPending}
                          onClick={() =>
                            role &&
                            modals.openConfirmModal({
                              title: `Make ${user.email} ${titleCase(role).toLowerCase()}?`,
                              children: <Text size="sm">Their sessions end; the new role applies when they sign in again.</Text>,
                              labels: { confirm: 'Change role', cancel: 'Back' },
                              onConfirm: () => roleChange.mutate(role),
                            })
                          }
                        >
                          Change role
                        </Button>
                      </Group>
                      {roleChange.isError ? (
                        <Text c="red.8" size="sm" mt="xs" role="alert">
                          {describe(roleChange.error)}
                        </Text>
                      ) : null}
                    </Paper>
                  ) : null}
                </Stack>
              </Grid.Col>
              <Grid.Col span={{ base: 12, lg: 8 }}>
                <Paper withBorder p="md" radius="md">
                  <Title order={2} size="h4" mb="sm">
                    Orders
                  </Title>
                  <QueryState query={orders}>
                    {(result) => (
                      <DataTable
                        label={`Orders of ${user.email}`}
                        columns={columns}
                        rows={result.data}
                        rowKey={(order) => order.public_id}
                        meta={result.meta}
                        loading={orders.isFetching}
                        onPage={(p) => void navigate({ search: { page: p } })}
                        empty={<Text>No orders yet.</Text>}
                      />
                    )}
                  </QueryState>
                </Paper>
              </Grid.Col>
            </Grid>
          </>
        );
      }}
    </QueryState>
  );
}
