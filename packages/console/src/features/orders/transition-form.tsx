import { Button, Group, List, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { IconTruck } from '@tabler/icons-react';
import { FormErrors } from '../../components/FormErrors';
import { placeErrors } from '../../lib/errors';
import { useCloseModal } from '../../lib/form-modal';
import { LeaveGuard } from '../../lib/leave-guard';
import type { StatusChange } from './api';
import { statusChange, stepEffects, type OrderFacts, type Step } from './steps';
import { submitWith } from '../../lib/form-submit';

interface TransitionValues {
  carrier: string;
  tracking_number: string;
  note: string;
}

/** One step's confirmation: its effect per line, the carrier when shipping, and an internal note for the history. */
export function TransitionForm({
  step,
  order,
  onSubmit,
}: {
  step: Step;
  order: OrderFacts;
  onSubmit: (change: StatusChange) => Promise<void>;
}) {
  const shipping = step.to === 'SHIPPED';
  const close = useCloseModal();
  const form = useForm<TransitionValues>({
    initialValues: { carrier: '', tracking_number: '', note: '' },
    validate: {
      carrier: (value) =>
        !shipping ? null : value.trim() === '' ? 'Name the carrier' : value.length > 100 ? 'At most 100 characters' : null,
      tracking_number: (value) => (value.length > 100 ? 'At most 100 characters' : null),
      note: (value) => (value.length > 1000 ? 'At most 1,000 characters' : null),
    },
  });
  return (
    <form
      noValidate
      onSubmit={submitWith(form, async (values, refuse) => {
        try {
          await onSubmit(statusChange(step, values));
          modals.closeAll();
        } catch (error) {
          // INSUFFICIENT_STOCK names the SKUs short on hand; INVALID_TRANSITION says what the order can become now.
          refuse(placeErrors(error, { inputs: ['carrier', 'tracking_number', 'note'] }));
        }
      })}
    >
      <LeaveGuard form={form} />
      <Stack>
        <List size="sm" spacing={4}>
          {stepEffects(step.to, order).map((effect) => (
            <List.Item key={effect}>{effect}</List.Item>
          ))}
        </List>
        {shipping ? (
          <>
            <TextInput label="Carrier" required data-autofocus maxLength={100} {...form.getInputProps('carrier')} />
            <TextInput label="Tracking number" maxLength={100} {...form.getInputProps('tracking_number')} />
          </>
        ) : null}
        <Textarea
          label="Note (internal)"
          description="Kept in the order's history"
          autosize
          minRows={2}
          maxLength={1000}
          data-autofocus={!shipping || undefined}
          {...form.getInputProps('note')}
        />
        <FormErrors form={form} title={`${step.label} failed`} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Back
          </Button>
          <Button type="submit" color={step.color} loading={form.submitting} leftSection={shipping ? <IconTruck size={16} /> : undefined}>
            {shipping ? 'Ship order' : step.label}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
