import { Anchor, Button, Select, Text } from '@mantine/core';
import { IconMailPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { ACCOUNT_STATUSES, ROLE_FILTERS, type RoleFilter } from '../../api/domain';
import { useStaff } from '../../api/session';
import { DataTable, type Column } from '../../components/DataTable';
import { DateRange } from '../../components/DateRange';
import { FilterBar } from '../../components/FilterBar';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { SearchInput } from '../../components/SearchInput';
import { SinceFilter } from '../../components/SinceFilter';
import { StatusBadge } from '../../components/StatusBadge';
import { day, titleCase } from '../../lib/format';
import { compact, instantRange } from '../../lib/search';
import { accountsQuery } from './api';
import type { CustomersSearch } from './search';

const PAGE_SIZE = 25;

/** STAFF is the API's filter for both staff roles, which the sidebar's Staff entry opens. */
const roleFilterLabel = (role: RoleFilter) => (role === 'STAFF' ? 'Staff (admins and super admins)' : titleCase(role));

export function CustomersScreen() {
  const search = useSearch({ from: '/staff/customers' });
  const navigate = useNavigate({ from: '/customers' });
  const update = (changes: Partial<CustomersSearch>) =>
    void navigate({ search: (previous) => compact({ ...previous, page: undefined, ...changes }) });
  const joined = instantRange(search);
  const query = compact({
    page: search.page ?? 1,
    limit: PAGE_SIZE,
    search: search.q,
    role: search.role,
    status: search.status,
    joined_from: joined.from,
    joined_to: joined.to,
    sort: search.sort ?? '-created_at',
  });
  const accounts = useQuery(accountsQuery(query));
  const me = useStaff();

  type Row = NonNullable<typeof accounts.data>['data'][number];
  const columns: Column<Row>[] = [
    {
      key: 'name',
      header: 'Name',
      sort: 'name',
      render: (user) => (
        <Anchor fw={600} renderRoot={(props) => <Link {...props} to="/customers/$userId" params={{ userId: user.public_id }} />}>
          <bdi>{user.first_name}</bdi> <bdi>{user.last_name}</bdi>
        </Anchor>
      ),
    },
    { key: 'email', header: 'Email', sort: 'email', render: (user) => <bdi>{user.email}</bdi> },
    { key: 'role', header: 'Role', render: (user) => <StatusBadge status={user.role} /> },
    { key: 'status', header: 'Status', render: (user) => <StatusBadge status={user.status} /> },
    { key: 'verified', header: 'Email verified', render: (user) => (user.email_verified ? 'Yes' : 'No') },
    { key: 'joined', header: 'Joined', sort: 'created_at', render: (user) => day(user.created_at) },
  ];
  const staffView = search.role === 'STAFF' || search.role === 'ADMIN' || search.role === 'SUPER_ADMIN';
  const filtered = Boolean(search.q || search.role || search.status || search.from || search.to || search.since);
  return (
    <>
      <PageHeader
        title={staffView ? 'Staff' : 'Customers'}
        subtitle={staffView ? 'The people who run the store: admins and super admins' : 'Accounts of the store, customers and staff'}
        actions={
          staffView && me.isSuper ? (
            <Button leftSection={<IconMailPlus size={16} />} renderRoot={(props) => <Link {...props} to="/invitations" />}>
              Invite a person
            </Button>
          ) : null
        }
      />
      <FilterBar onClear={filtered ? () => void navigate({ search: {} }) : undefined}>
        <SearchInput label="Search" placeholder="Name or email" value={search.q} onSearch={(q) => update({ q })} />
        <Select
          label="Role"
          placeholder="Any role"
          clearable
          w={310}
          data={ROLE_FILTERS.map((role) => ({ value: role, label: roleFilterLabel(role) }))}
          value={search.role ?? null}
          onChange={(role) => update({ role: (role ?? undefined) as CustomersSearch['role'] })}
        />
        <Select
          label="Status"
          placeholder="Any status"
          clearable
          w={150}
          data={ACCOUNT_STATUSES.map((status) => ({ value: status, label: titleCase(status) }))}
          value={search.status ?? null}
          onChange={(status) => update({ status: (status ?? undefined) as CustomersSearch['status'] })}
        />
        <DateRange labels={['Joined from (UTC)', 'Joined to (UTC)']} from={search.from} to={search.to} onChange={update} />
        <SinceFilter label="Joined" since={search.since} onRemove={() => update({ since: undefined })} />
      </FilterBar>
      <QueryState query={accounts}>
        {(result) => (
          <DataTable
            label="Accounts"
            columns={columns}
            rows={result.data}
            rowKey={(user) => user.public_id}
            meta={result.meta}
            loading={accounts.isFetching}
            sort={query.sort}
            onSort={(sort) => update({ sort: sort as CustomersSearch['sort'] })}
            onPage={(p) => void navigate({ search: (previous) => ({ ...previous, page: p }) })}
            empty={<Text>{filtered ? 'No accounts match these filters.' : 'No accounts yet.'}</Text>}
          />
        )}
      </QueryState>
    </>
  );
}
