import { Anchor, Button, Code, Select, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES } from '../../api/domain';
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
import { actionGroup, actionVerb, AuditEntity, entityTypeLabel } from './audit-entity';
import type { AuditSearch } from './search';

const PAGE_SIZE = 50;

/** The actions as the filter offers them, grouped by area ("Inventory": adjust, reserve, ...). */
const ACTION_OPTIONS = [...new Set(AUDIT_ACTIONS.map(actionGroup))].map((group) => ({
  group,
  items: AUDIT_ACTIONS.filter((action) => actionGroup(action) === group).map((action) => ({
    value: action,
    label: `${group}: ${actionVerb(action)}`,
  })),
}));

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
    { key: 'when', header: 'When', render: (e) => when(e.created_at) },
    {
      key: 'actor',
      header: 'By',
      render: (e) =>
        e.actor ? (
          <>
            <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/customers/$userId" params={{ userId: e.actor!.public_id }} />}>
              <bdi>{e.actor.email}</bdi>
            </Anchor>{' '}
            <Text span size="xs" c="dimmed">
              ({titleCase(e.actor.role)})
            </Text>
          </>
        ) : (
          'System'
        ),
    },
    { key: 'action', header: 'Action', render: (e) => <Code>{e.action}</Code> },
    {
      key: 'entity',
      header: 'About',
      render: (e) => <AuditEntity type={e.entity_type} id={e.entity_public_id} label={e.entity_label} />,
    },
    { key: 'changes', header: 'Changes', render: (e) => <AuditChanges changes={e.changes} reason={e.reason} /> },
    { key: 'ip', header: 'Address', render: (e) => (e.ip ? <bdi>{e.ip}</bdi> : '—') },
  ];
  // The whole filtered log, every page of it, streamed by the API.
  const csv = `/api/v1/admin/audit?${new URLSearchParams({ ...filters, format: 'csv' }).toString()}`;
  const filtered = Object.keys(filters).length > 0;
  return (
    <>
      <PageHeader
        title="Audit log"
        subtitle="Who changed what, newest first; entries are never edited or deleted"
        actions={
          <Button component="a" href={csv} download variant="default" leftSection={<IconDownload size={16} />}>
            {filtered ? 'Download these entries as CSV' : 'Download the log as CSV'}
          </Button>
        }
      />
      <FilterBar onClear={filtered ? () => void navigate({ search: {} }) : undefined}>
        <SearchInput label="By" placeholder="Email or usr_ ID" value={search.actor} onSearch={(actor) => update({ actor })} />
        <Select
          label="Action"
          placeholder="Any action"
          searchable
          clearable
          w={240}
          data={ACTION_OPTIONS}
          value={search.action ?? null}
          onChange={(action) => update({ action: (action ?? undefined) as AuditSearch['action'] })}
        />
        <Select
          label="About"
          placeholder="Anything"
          clearable
          w={170}
          data={AUDIT_ENTITY_TYPES.map((type) => ({ value: type, label: entityTypeLabel(type) }))}
          value={search.entity ?? null}
          onChange={(entity) => update({ entity: (entity ?? undefined) as AuditSearch['entity'] })}
        />
        <SearchInput label="ID" placeholder="e.g. ord_…" value={search.entity_id} onSearch={(entity_id) => update({ entity_id })} />
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
