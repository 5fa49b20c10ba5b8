import { Button, Code, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES } from '../../api/domain';
import { DataTable, type Column } from '../../components/DataTable';
import { DateRange } from '../../components/DateRange';
import { FilterBar } from '../../components/FilterBar';
import { QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { count, titleCase, utcDay, when } from '../../lib/format';
import { notifyDone, notifyError } from '../../lib/notify';
import { compact, dayStart, instantRange } from '../../lib/search';
import { deliveriesQuery, useRedeliver, useRedeliverFailed } from './api';
import type { Delivery } from './refresh';
import { openDeliveryDetail } from './delivery-detail';
import type { DeliveriesSearch } from './search';

const PAGE_SIZE = 25;

/** Where a delivery stands, in words: sent, being sent, when it is tried next, or why it stopped. */
function DeliveryState({ delivery: d }: { delivery: Delivery }) {
  return (
    <Stack gap={2}>
      <StatusBadge status={d.status} />
      {d.in_flight ? (
        <Text size="xs">being sent</Text>
      ) : d.status === 'PENDING' && d.next_attempt_at ? (
        <Text size="xs">next try {when(d.next_attempt_at)}</Text>
      ) : null}
    </Stack>
  );
}

/** The receiver's answer to the last attempt: its status and first bytes, or why there was none. */
function Answer({ delivery: d }: { delivery: Delivery }) {
  if (d.response_status === null && !d.error) return <>—</>;
  return (
    <Stack gap={2}>
      {d.response_status !== null ? <Text size="sm">HTTP {d.response_status}</Text> : null}
      {d.response_body ? (
        <Text size="xs" c="dimmed" lineClamp={2} ff="monospace">
          <bdi>{d.response_body}</bdi>
        </Text>
      ) : null}
      {d.error ? (
        // Kept after a later success: why it took more than one attempt.
        <Text size="xs" c={d.status === 'SUCCEEDED' ? 'dimmed' : 'red.8'} lineClamp={2}>
          {d.status === 'SUCCEEDED' ? 'Before: ' : null}
          <bdi>{d.error}</bdi>
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * An endpoint's delivery log, newest first, filtered by status, event type and day (UTC) in the URL;
 * one delivery can be sent again, or every one that failed for events since a day.
 */
export function DeliveriesPanel({ endpointId }: { endpointId: string }) {
  const search = useSearch({ from: '/staff/webhooks/$endpointId' });
  const navigate = useNavigate({ from: '/webhooks/$endpointId' });
  const update = (changes: Partial<DeliveriesSearch>) =>
    void navigate({ search: (previous) => compact({ ...previous, page: undefined, ...changes }) });
  const query = compact({
    page: search.page ?? 1,
    limit: PAGE_SIZE,
    status: search.status,
    event_type: search.event,
    ...instantRange(search),
  });
  const deliveries = useQuery(deliveriesQuery(endpointId, query));
  const redeliver = useRedeliver(endpointId);
  const redeliverFailed = useRedeliverFailed(endpointId);
  const [since, setSince] = useState(utcDay());
  const filtered = Boolean(search.status || search.event || search.from || search.to);

  const again = async (d: Delivery) => {
    try {
      await redeliver.mutateAsync(d.public_id);
      notifyDone(`${d.event.type} queued again, with the same webhook-id`);
    } catch (error) {
      notifyError(error, 'Not sent again');
    }
  };
  const againSince = async () => {
    try {
      const { redelivered } = await redeliverFailed.mutateAsync(dayStart(since));
      notifyDone(
        redelivered === 0
          ? `No failed delivery since ${since} (UTC)`
          : `${count(redelivered)} failed ${redelivered === 1 ? 'delivery' : 'deliveries'} queued again`,
      );
    } catch (error) {
      notifyError(error, 'Not sent again');
    }
  };

  const columns: Column<Delivery>[] = [
    {
      key: 'event',
      header: 'Event',
      render: (d) => (
        <Stack gap={2}>
          <Code>{d.event.type}</Code>
          <Text size="xs" c="dimmed" ff="monospace">
            {d.event.public_id}
          </Text>
        </Stack>
      ),
    },
    { key: 'status', header: 'Status', render: (d) => <DeliveryState delivery={d} /> },
    { key: 'attempts', header: 'Attempts', align: 'right', render: (d) => count(d.attempts) },
    { key: 'last', header: 'Last attempt', render: (d) => (d.last_attempt_at ? when(d.last_attempt_at) : '—') },
    { key: 'latency', header: 'Took', align: 'right', render: (d) => (d.latency_ms === null ? '—' : `${count(d.latency_ms)} ms`) },
    { key: 'answer', header: 'Answer', render: (d) => <Answer delivery={d} /> },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (d) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Button
            size="compact-sm"
            variant="subtle"
            aria-label={`Details of ${d.event.type} ${d.event.public_id}`}
            onClick={() => openDeliveryDetail(endpointId, d.public_id)}
          >
            Details
          </Button>
          {d.status === 'PENDING' ? null : (
            <Button
              size="compact-sm"
              variant="subtle"
              aria-label={`Send ${d.event.type} ${d.event.public_id} again`}
              loading={redeliver.isPending && redeliver.variables === d.public_id}
              onClick={() => void again(d)}
            >
              Send again
            </Button>
          )}
        </Group>
      ),
    },
  ];

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="deliveries-title">
      <Title order={2} size="h4" mb="sm" id="deliveries-title">
        Deliveries
      </Title>
      <FilterBar onClear={filtered ? () => update({ status: undefined, event: undefined, from: undefined, to: undefined }) : undefined}>
        <Select
          label="Status"
          placeholder="Any"
          clearable
          w={150}
          data={DELIVERY_STATUSES.map((value) => ({ value, label: titleCase(value) }))}
          value={search.status ?? null}
          onChange={(status) => update({ status: (status ?? undefined) as DeliveriesSearch['status'] })}
        />
        <Select
          label="Event"
          placeholder="Any event"
          clearable
          searchable
          w={220}
          data={[...WEBHOOK_EVENT_TYPES]}
          value={search.event ?? null}
          onChange={(event) => update({ event: (event ?? undefined) as DeliveriesSearch['event'] })}
        />
        <DateRange labels={['From (UTC)', 'To (UTC)']} from={search.from} to={search.to} onChange={update} />
      </FilterBar>
      <QueryState query={deliveries}>
        {(result) => (
          <DataTable
            label="Deliveries"
            columns={columns}
            minWidth={960}
            rows={result.data}
            rowKey={(d) => d.public_id}
            meta={result.meta}
            loading={deliveries.isFetching}
            onPage={(page) => void navigate({ search: (previous) => ({ ...previous, page }) })}
            empty={<Text>{filtered ? 'No delivery matches these filters.' : 'Nothing sent yet: try “Send test event”.'}</Text>}
          />
        )}
      </QueryState>
      <Title order={3} size="h5" mt="lg" mb={4}>
        Send again every failed delivery
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        Each goes with the same webhook-id, so the receiver can tell a repeat, and gets a new round of retries.
      </Text>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label="For events since (UTC)"
          type="date"
          w={200}
          value={since}
          max={utcDay()}
          onChange={(event) => setSince(event.currentTarget.value)}
        />
        <Button variant="default" disabled={!since} loading={redeliverFailed.isPending} onClick={() => void againSince()}>
          Send the failed ones again
        </Button>
      </Group>
    </Paper>
  );
}
