import { Button, Checkbox, Group, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { FormErrors } from '../../components/FormErrors';
import { QueryState } from '../../components/QueryState';
import { placeErrors } from '../../lib/errors';
import { submitWith } from '../../lib/form-submit';
import { LeaveGuard } from '../../lib/leave-guard';
import { eventTypesQuery, type EndpointBody } from './api';
import { EventSummary } from './event-summary';

type EventType = EndpointBody['event_types'][number];

interface EndpointValues {
  url: string;
  description: string;
  event_types: EventType[];
}

/**
 * An endpoint's address, description and the event types it wants, each named with what it means
 * (the API's catalog). `onSubmit` throws the API's refusal (an address it will not call, say): field
 * errors go next to their inputs, the rest above the button.
 */
export function EndpointForm({
  initial,
  submitLabel,
  onSubmit,
}: {
  initial: EndpointValues | null;
  submitLabel: string;
  onSubmit: (values: EndpointValues) => Promise<void>;
}) {
  const catalog = useQuery(eventTypesQuery);
  const form = useForm<EndpointValues>({
    initialValues: initial ?? { url: '', description: '', event_types: [] },
    validate: {
      url: (value) => (/^https?:\/\/\S+$/i.test(value.trim()) ? null : 'An address starting with https://'),
      event_types: (value) => (value.length > 0 ? null : 'Pick at least one event'),
    },
  });
  return (
    <form
      noValidate
      onSubmit={submitWith(form, async (values, refuse) => {
        try {
          await onSubmit({ ...values, url: values.url.trim(), description: values.description.trim() });
          form.resetDirty();
        } catch (error) {
          refuse(
            placeErrors(error, {
              inputs: ['url', 'description', 'event_types'],
              rename: (f) => f.replace(/^event_types\.\d+$/, 'event_types'),
            }),
          );
        }
      })}
    >
      <LeaveGuard form={form} />
      <Stack>
        <TextInput
          label="URL"
          required
          maxLength={2000}
          placeholder="https://example.com/webhooks"
          description="Where each event is posted, signed with the endpoint's secret"
          {...form.getInputProps('url')}
        />
        <Textarea label="Description" maxLength={500} autosize minRows={1} maxRows={4} {...form.getInputProps('description')} />
        <QueryState query={catalog}>
          {(types) => {
            const subscribable = types.filter((type) => type.subscribable);
            const all = subscribable.map((type) => type.type as EventType);
            const chosen = form.values.event_types;
            return (
              <Checkbox.Group label="Events" required {...form.getInputProps('event_types')}>
                <Group gap="xs" mt={4} mb="xs">
                  <Button size="compact-xs" variant="subtle" onClick={() => form.setFieldValue('event_types', all)}>
                    Every event
                  </Button>
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    disabled={chosen.length === 0}
                    onClick={() => form.setFieldValue('event_types', [])}
                  >
                    None
                  </Button>
                </Group>
                <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} spacing="xs">
                  {subscribable.map((type) => (
                    <Checkbox
                      key={type.type}
                      value={type.type}
                      label={<code>{type.type}</code>}
                      description={<EventSummary text={type.summary} />}
                    />
                  ))}
                </SimpleGrid>
              </Checkbox.Group>
            );
          }}
        </QueryState>
        <Text size="xs" c="dimmed">
          Events about the same order, product or stock record arrive in the order they happened.
        </Text>
        <FormErrors form={form} />
        <Group>
          <Button type="submit" loading={form.submitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
