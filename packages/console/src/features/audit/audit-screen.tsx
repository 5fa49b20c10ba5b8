import { Button, Code, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { DataTable, type Column } from '../../components/DataTable';
import { DateRange } from '../../components/DateRange';
import { FilterBar } from '../../components/FilterBar';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { SearchInput } from '../../components/SearchInput';
import { titleCase, when } from '../../lib/format';
import { compact, instantRange } from '../../lib/search';
import { auditQuery } from './api';
import { AuditChanges } from './audit-changes';
import type { AuditSearch } from './search';

const PAGE_SIZE = 50;

export function AuditScreen() {
  const search = useSearch({ from: '/staff/audit' });
  const navigate = useNavigate({ from: '/audit' });
  const update = (changes: Partial<AuditSearch>) =>
    void navigate({ search: (previous) => compact({ ...previous, page: undefined, ...changes }) });
  const filters = compact({
    actor: search.actor,
    action: search.action,
    entity_type: search.entity,
    entity_public_id: search.entity_id,
    ...instantRange(search),
  });
  const query = { page: search.page ?? 1, limit: PAGE_SIZE, ...filters };
  const entries = useQuery(auditQuery(query));

  type Row = NonNullable<typeof entries.data>['data'][number];
  const columns: Column<Row>[] = [
    { key: 'when', header: 'When', nowrap: true, render: (e) => when(e.created_at) },
    {
      key: 'actor',
      header: 'Actor',
      render: (e) =>
        e.actor ? (
          <>
            <bdi>{e.actor.email}</bdi> ({titleCase(e.actor.role)})
          </>
        ) : (
          'System'
        ),
    },
    { key: 'action', header: 'Action', render: (e) => <Code>{e.action}</Code> },
    {
      key: 'entity',
      header: 'Entity',
      render: (e) => (
        <>
          {e.entity_type} {e.entity_public_id ? <bdi>{e.entity_public_id}</bdi> : null}
        </>
      ),
    },
    { key: 'changes', header: 'Changes', render: (e) => <AuditChanges changes={e.changes} reason={e.reason} /> },
    { key: 'ip', header: 'Address', render: (e) => e.ip ?? '—' },
  ];
  const csv = `/api/v1/admin/audit?${new URLSearchParams({ ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])), format: 'csv' }).toString()}`;
  const filtered = Object.keys(filters).length > 0;
  return (
    <>
      <PageHeader
        title="Audit log"
        subtitle="Who changed what, newest first; entries are never edited or deleted"
        actions={
          <Button component="a" href={csv} download variant="default" leftSection={<IconDownload size={16} />}>
            Download this page as CSV
          </Button>
        }
      />
      <FilterBar onClear={filtered ? () => void navigate({ search: {} }) : undefined}>
        <SearchInput label="Actor" placeholder="Email or usr_ ID" value={search.actor} onSearch={(actor) => update({ actor })} />
        <SearchInput label="Action" placeholder="e.g. inventory.adjust" value={search.action} onSearch={(action) => update({ action })} />
        <SearchInput label="Entity type" placeholder="e.g. order" value={search.entity} onSearch={(entity) => update({ entity })} />
        <SearchInput label="Entity ID" placeholder="e.g. ord_…" value={search.entity_id} onSearch={(entity_id) => update({ entity_id })} />
        <DateRange labels={['From (UTC)', 'To (UTC)']} from={search.from} to={search.to} onChange={update} />
      </FilterBar>
      <QueryState query={entries}>
        {(result) => (
          <DataTable
            label="Audit entries"
            columns={columns}
            minWidth={1000}
            rows={result.data}
            rowKey={(e) => e.public_id}
            meta={result.meta}
            loading={entries.isFetching}
            onPage={(p) => void navigate({ search: (previous) => ({ ...previous, page: p }) })}
            empty={<Text>{filtered ? 'No entries match these filters.' : 'Nothing recorded yet.'}</Text>}
          />
        )}
      </QueryState>
    </>
  );
}
