import { Anchor, Button, Grid, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearch } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useStaff } from '../../api/session';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { confirmThen } from '../../lib/confirm';
import { count, day, money } from '../../lib/format';
import { accountQuery, useSetSuspension } from './api';
import { CustomerOrders } from './customer-orders';
import { suspensionBlockedBecause } from './reach';
import { RolePanel } from './role-panel';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text>{children}</Text>
    </div>
  );
}

/** Suspends or reactivates the account, asking first; ends every session of it when suspending. */
function SuspensionButton({ user }: { user: { public_id: string; email: string; status: string } }) {
  const suspension = useSetSuspension(user.public_id);
  const suspended = user.status === 'SUSPENDED';
  const confirm = () =>
    confirmThen({
      title: (
        <>
          {suspended ? 'Reactivate' : 'Suspend'} <bdi>{user.email}</bdi>?
        </>
      ),
      body: suspended
        ? 'They can sign in again. Their orders are unchanged.'
        : 'Every session of the account ends at once and it cannot sign in until reactivated. Orders are unchanged.',
      confirm: suspended ? 'Reactivate' : 'Suspend',
      cancel: 'Back',
      danger: !suspended,
      action: () => suspension.mutateAsync(!suspended),
      done: suspended ? 'Account reactivated' : 'Account suspended: its sessions have ended',
      failed: 'Not changed',
    });
  return (
    <Button color={suspended ? undefined : 'red'} variant={suspended ? 'filled' : 'light'} loading={suspension.isPending} onClick={confirm}>
      {suspended ? 'Reactivate' : 'Suspend'}
    </Button>
  );
}

export function CustomerScreen() {
  const { userId } = useParams({ from: '/staff/customers/$userId' });
  const search = useSearch({ from: '/staff/customers/$userId' });
  const me = useStaff();
  const account = useQuery(accountQuery(userId));
  return (
    <QueryState
      query={account}
      screen="Account"
      back={
        <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/customers" />}>
          ← All accounts
        </Anchor>
      }
    >
      {(user) => {
        const blocked = suspensionBlockedBecause(me, user);
        return (
          <>
            <PageHeader
              title={
                <>
                  <bdi>{user.first_name}</bdi> <bdi>{user.last_name}</bdi>
                </>
              }
              tabTitle={`${user.first_name} ${user.last_name}`}
              subtitle={
                <Group gap="xs" component="span">
                  <StatusBadge status={user.role} /> <StatusBadge status={user.status} /> <bdi>{user.email}</bdi>
                </Group>
              }
              actions={
                blocked ? (
                  <Text size="sm" c="dimmed">
                    {blocked}
                  </Text>
                ) : (
                  <SuspensionButton user={user} />
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
                      <Fact label="Email">
                        <bdi>{user.email}</bdi>
                      </Fact>
                      <Fact label="Verified">{user.email_verified ? 'Yes' : 'Not yet'}</Fact>
                      <Fact label="Phone">{user.phone_number ? <bdi>{user.phone_number}</bdi> : '—'}</Fact>
                      <Fact label="Joined">{day(user.created_at)}</Fact>
                      <Fact label="Orders">{count(user.order_count)}</Fact>
                      <Fact label="Lifetime spend">{money(user.lifetime_spend)}</Fact>
                    </SimpleGrid>
                  </Paper>
                  {me.isSuper && user.public_id !== me.public_id ? <RolePanel user={user} /> : null}
                </Stack>
              </Grid.Col>
              <Grid.Col span={{ base: 12, lg: 8 }}>
                <Paper withBorder p="md" radius="md">
                  <Title order={2} size="h4" mb="sm">
                    Orders
                  </Title>
                  <CustomerOrders userId={userId} email={user.email} page={search.page ?? 1} />
                </Paper>
              </Grid.Col>
            </Grid>
          </>
        );
      }}
    </QueryState>
  );
}
