import { Code, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useQuery } from '@tanstack/react-query';
import { QueryState } from '../../components/QueryState';
import { when } from '../../lib/format';
import { deliveryQuery } from './api';

/** One delivery: the body that was sent (the same on every attempt) and the receiver's last answer. */
function DeliveryDetail({ endpointId, deliveryId }: { endpointId: string; deliveryId: string }) {
  const delivery = useQuery(deliveryQuery(endpointId, deliveryId));
  return (
    <QueryState query={delivery}>
      {(d) => (
        <Stack gap="sm">
          <Text size="sm">
            <code>webhook-id</code>: <code>{d.event.public_id}</code> · {d.attempts} {d.attempts === 1 ? 'attempt' : 'attempts'}
            {d.delivered_at ? ` · delivered ${when(d.delivered_at)}` : ''}
          </Text>
          <Text fw={600} size="sm">
            Sent
          </Text>
          <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxHeight: 360, overflow: 'auto' }}>
            {JSON.stringify(d.payload, null, 2)}
          </Code>
          <Text fw={600} size="sm">
            Last answer{d.response_status !== null ? `: HTTP ${d.response_status}` : ''}
          </Text>
          {d.response_body ? (
            <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              <bdi>{d.response_body}</bdi>
            </Code>
          ) : (
            <Text size="sm">{d.error ? <bdi>{d.error}</bdi> : 'No body'}</Text>
          )}
        </Stack>
      )}
    </QueryState>
  );
}

export function openDeliveryDetail(endpointId: string, deliveryId: string) {
  modals.open({
    title: 'Delivery',
    size: 'xl',
    children: <DeliveryDetail endpointId={endpointId} deliveryId={deliveryId} />,
  });
}
