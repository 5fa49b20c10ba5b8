import { Alert, Anchor, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { IconKey, IconPlayerPause, IconPlayerPlay, IconSend } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { confirmThen } from '../../lib/confirm';
import { when } from '../../lib/format';
import { notifyDone, notifyError } from '../../lib/notify';
import { notifyUndoable } from '../../lib/undo';
import { endpointQuery, useCreateEndpoint, useDeleteEndpoint, useSendTestEvent, useUpdateEndpoint } from './api';
import { DeliveriesPanel } from './deliveries-panel';
import { EndpointForm } from './endpoint-form';
import { EndpointState } from './endpoint-state';
import { openRotateSecret } from './rotate-secret';
import { showSecretOnce } from './secret-modal';

const allEndpoints = (
  <Anchor size="sm" mb="md" display="inline-block" renderRoot={(props) => <Link {...props} to="/webhooks" />}>
    ← All endpoints
  </Anchor>
);

/** A new endpoint: once made, its screen opens and its signing secret is shown, once. */
export function NewEndpointScreen() {
  const create = useCreateEndpoint();
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title="Add a webhook endpoint" subtitle="The store posts each event it picks here, signed with a secret shown once" />
      {allEndpoints}
      <Paper withBorder p="md" radius="md" maw={1100}>
        <EndpointForm
          initial={null}
          submitLabel="Add endpoint"
          onSubmit={async (values) => {
            const { secret, ...endpoint } = await create.mutateAsync(values);
            await navigate({ to: '/webhooks/$endpointId', params: { endpointId: endpoint.public_id } });
            showSecretOnce(secret);
          }}
        />
      </Paper>
    </>
  );
}

export function EndpointScreen() {
  const { endpointId } = useParams({ from: '/staff/webhooks/$endpointId' });
  const navigate = useNavigate();
  const endpoint = useQuery(endpointQuery(endpointId));
  const settings = useUpdateEndpoint(endpointId);
  // Its own instance, so only pausing shows on the Pause button.
  const pausing = useUpdateEndpoint(endpointId);
  const test = useSendTestEvent(endpointId);
  const deletion = useDeleteEndpoint(endpointId);

  /** Pausing and resuming apply at once with Undo: the API reverses either exactly, and a paused endpoint's events wait for it. */
  const setPaused = async (paused: boolean) => {
    try {
      await pausing.mutateAsync({ status: paused ? 'PAUSED' : 'ACTIVE' });
      notifyUndoable(
        paused ? 'Paused: its events wait until it is resumed' : 'Resumed: what it missed is sent, in order',
        () => settings.mutateAsync({ status: paused ? 'ACTIVE' : 'PAUSED' }),
        paused ? 'Resumed again' : 'Paused again',
      );
    } catch (error) {
      notifyError(error, 'Not changed');
    }
  };
  const sendTest = async () => {
    try {
      await test.mutateAsync();
      notifyDone('Test event queued: it shows in the deliveries below');
    } catch (error) {
      notifyError(error, 'Not sent');
    }
  };
  const remove = (url: string) =>
    confirmThen({
      title: 'Delete this endpoint?',
      body: (
        <>
          <bdi>{url}</bdi> receives nothing more; what it has not received yet is cancelled, and its delivery log goes with it.
        </>
      ),
      confirm: 'Delete',
      action: () => deletion.mutateAsync(),
      done: 'Endpoint deleted',
      failed: 'Not deleted',
      after: () => navigate({ to: '/webhooks' }),
    });

  return (
    <QueryState query={endpoint} screen="Webhook endpoint" back={allEndpoints}>
      {(e) => (
        <>
          <PageHeader
            title={<bdi>{e.url}</bdi>}
            tabTitle={e.url}
            subtitle={<EndpointState endpoint={e} />}
            actions={
              <>
                <Button variant="default" leftSection={<IconSend size={16} />} loading={test.isPending} onClick={() => void sendTest()}>
                  Send test event
                </Button>
                <Button
                  variant="default"
                  leftSection={e.status === 'ACTIVE' ? <IconPlayerPause size={16} /> : <IconPlayerPlay size={16} />}
                  loading={pausing.isPending}
                  onClick={() => void setPaused(e.status === 'ACTIVE')}
                >
                  {e.status === 'ACTIVE' ? 'Pause' : 'Resume'}
                </Button>
                <Button variant="default" leftSection={<IconKey size={16} />} onClick={() => openRotateSecret(endpointId)}>
                  Rotate secret
                </Button>
                <Button color="red" variant="light" onClick={() => remove(e.url)}>
                  Delete
                </Button>
              </>
            }
          />
          {allEndpoints}
          <Stack gap="md">
            {e.status === 'PAUSED' && e.paused_reason === 'FAILING' ? (
              <Alert color="red" variant="light" title="Paused for failing">
                No delivery succeeded for a day, so it was paused {e.paused_at ? `on ${when(e.paused_at)}` : ''} and the super admins were
                emailed. Its events are kept: resuming sends them in order.
              </Alert>
            ) : null}
            {e.previous_secret_expires_at ? (
              <Text size="sm">The previous secret signs beside the current one until {when(e.previous_secret_expires_at)}.</Text>
            ) : null}
            <DeliveriesPanel endpointId={endpointId} />
            <Paper withBorder p="md" radius="md">
              <Title order={2} size="h4" mb="sm">
                Settings
              </Title>
              <EndpointForm
                key={e.updated_at}
                initial={{ url: e.url, description: e.description, event_types: e.event_types }}
                submitLabel="Save endpoint"
                onSubmit={async (values) => {
                  await settings.mutateAsync(values);
                  notifyDone('Endpoint saved');
                }}
              />
            </Paper>
          </Stack>
        </>
      )}
    </QueryState>
  );
}
