import { Group, Text } from '@mantine/core';
import { StatusBadge } from '../../components/StatusBadge';
import { count, when } from '../../lib/format';
import type { Endpoint } from './api';

/** The most `events_waiting` counts (the API stops counting there). */
const WAITING_COUNTED_UP_TO = 10_000;

/** Whether an endpoint receives events, and why not: paused by hand, or for failing a day; and what waits for it. */
export function EndpointState({ endpoint }: { endpoint: Endpoint }) {
  const waiting = endpoint.events_waiting;
  return (
    <Group gap={6} wrap="wrap">
      <StatusBadge status={endpoint.status} />
      {endpoint.status === 'PAUSED' && endpoint.paused_reason === 'FAILING' ? (
        <Text size="xs" c="red.9">
          after a day of failures
        </Text>
      ) : endpoint.failing_since ? (
        <Text size="xs" c="red.9">
          failing since {when(endpoint.failing_since)}
        </Text>
      ) : null}
      {waiting > 0 ? (
        <Text size="xs">
          {waiting >= WAITING_COUNTED_UP_TO ? `${count(WAITING_COUNTED_UP_TO)}+` : count(waiting)} {waiting === 1 ? 'event' : 'events'}{' '}
          waiting
        </Text>
      ) : null}
    </Group>
  );
}
