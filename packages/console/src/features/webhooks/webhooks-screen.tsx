import { Anchor, Button, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { count, when } from '../../lib/format';
import { compact } from '../../lib/search';
import { endpointsQuery, type Endpoint } from './api';
import { EndpointState } from './endpoint-state';
import type { WebhooksSearch } from './search';

const VIEWS = [
  { value: 'ALL', label: 'All' },
  { value: 'ACTIVE', label: 'Active' },
  { value: 'PAUSED', label: 'Paused' },
];

/** The webhook endpoints (SUPER_ADMIN): where the store posts its events, and whether each is receiving them. */
export function WebhooksScreen() {
  const search = useSearch({ from: '/staff/webhooks' });
  const navigate = useNavigate({ from: '/webhooks' });
  const query = compact({ page: search.page ?? 1, limit: 25, status: search.status });
  const endpoints = useQuery(endpointsQuery(query));
  const columns: Column<Endpoint>[] = [
    {
      key: 'url',
      header: 'Endpoint',
      render: (e) => (
        <Stack gap={0}>
          <Anchor fw={600} renderRoot={(props) => <Link {...props} to="/webhooks/$endpointId" params={{ endpointId: e.public_id }} />}>
            <bdi>{e.url}</bdi>
          </Anchor>
          {e.description ? (
            <Text size="xs" c="dimmed">
              <bdi>{e.description}</bdi>
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'events',
      header: 'Events',
      render: (e) => (
        <Text size="sm">
          {e.event_types.slice(0, 3).join(', ')}
          {e.event_types.length > 3 ? ` and ${count(e.event_types.length - 3)} more` : ''}
        </Text>
      ),
    },
    { key: 'status', header: 'Status', render: (e) => <EndpointState endpoint={e} /> },
    { key: 'created', header: 'Added', render: (e) => when(e.created_at) },
  ];
  return (
    <>
      <PageHeader
        title="Webhooks"
        subtitle="Endpoints the store posts its events to, signed, so other systems hear what happened"
        actions={
          <Button leftSection={<IconPlus size={16} />} renderRoot={(props) => <Link {...props} to="/webhooks/new" />}>
            Add endpoint
          </Button>
        }
      />
      <SegmentedControl
        aria-label="Show endpoints"
        mb="md"
        value={search.status ?? 'ALL'}
        data={VIEWS}
        onChange={(value) =>
          void navigate({ search: compact({ status: value === 'ALL' ? undefined : (value as WebhooksSearch['status']) }) })
        }
      />
      <QueryState query={endpoints}>
        {(result) => (
          <DataTable
            label="Webhook endpoints"
            columns={columns}
            rows={result.data}
            rowKey={(e) => e.public_id}
            meta={result.meta}
            loading={endpoints.isFetching}
            onPage={(page) => void navigate({ search: (previous) => ({ ...previous, page }) })}
            empty={
              <Text>
                {search.status ? 'No endpoint in this view.' : 'No endpoint yet: add one to send the store’s events to another system.'}
              </Text>
            }
          />
        )}
      </QueryState>
    </>
  );
}
