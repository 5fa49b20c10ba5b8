import { Group, Text } from '@mantine/core';
import { StatusBadge } from '../../components/StatusBadge';
import { when } from '../../lib/format';
import type { Endpoint } from './api';

/** Whether an endpoint receives events, and why not: paused by hand, or for failing a day. */
export function EndpointState({ endpoint }: { endpoint: Endpoint }) {
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
    </Group>
  );
}
