import { Button, Group, NumberInput, SegmentedControl, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { REORDER_LEVEL_HINT } from '../../api/settings';
import { FormErrors } from '../../components/FormErrors';
import { describeBriefly, placeErrors } from '../../lib/errors';
import { count } from '../../lib/format';
import { notifyDone } from '../../lib/notify';
import { useChangeReservation, useUpdateStockRecord } from './api';
import { confirmChange } from './confirm-change';
import { adjustmentPreview, adjustmentRefusal, previewLine, reservationPreview, reservationRefusal, type Figures } from './figures';
import { submitWith } from '../../lib/form-submit';
import { LeaveGuard } from '../../lib/leave-guard';

/** On hand moved by a change or set to a count, with a reason; asks first with the figures before and after. */
export function AdjustForm({ record, variantId }: { record: Figures; variantId: string }) {
  const update = useUpdateStockRecord(variantId);
  const form = useForm({
    initialValues: { mode: 'change' as 'change' | 'set', amount: '' as number | string, reason: '' },
    // What the API would refuse is said as it is typed, and never offered to apply.
    validateInputOnChange: ['amount'],
    validate: {
      amount: (value, values) =>
        typeof value !== 'number' || !Number.isInteger(value)
          ? 'Enter a whole number'
          : values.mode === 'change' && value === 0
            ? 'A change of zero changes nothing'
            : adjustmentRefusal(record, values.mode, value),
      reason: (value) => (value.length > 255 ? 'At most 255 characters' : null),
    },
  });
  const typed = form.values.amount;
  // The figures after, only for a change the API would make: a refused one shows its refusal alone.
  const amountPreview =
    typeof typed === 'number' &&
    Number.isInteger(typed) &&
    !(form.values.mode === 'change' && typed === 0) &&
    !adjustmentRefusal(record, form.values.mode, typed)
      ? previewLine(adjustmentPreview(record, form.values.mode, typed).lines)
      : undefined;
  return (
    <form
      noValidate
      onSubmit={submitWith(form, async (values, refuse) => {
        const amount = Number(values.amount);
        const preview = adjustmentPreview(record, values.mode, amount);
        if (!(await confirmChange('Adjust stock?', preview.lines))) return;
        try {
          await update.mutateAsync({
            ...(values.mode === 'set' ? { quantity_on_hand: amount } : { quantity_change: amount }),
            ...(values.reason.trim() ? { reason: values.reason.trim() } : {}),
          });
          form.reset();
          notifyDone(`On hand is now ${count(preview.onHand)}`);
        } catch (error) {
          refuse(
            placeErrors(error, {
              inputs: ['amount', 'reason'],
              rename: (field) => (field === 'quantity_change' || field === 'quantity_on_hand' ? 'amount' : field),
              // On hand below what orders hold, and the like: next to the amount.
              codes: { STOCK_RULE_VIOLATION: 'amount' },
            }),
          );
        }
      })}
    >
      <LeaveGuard form={form} />
      <Stack>
        <SegmentedControl
          aria-label="How to adjust"
          data={[
            { value: 'change', label: 'Add or remove' },
            { value: 'set', label: 'Set on hand to' },
          ]}
          {...form.getInputProps('mode')}
        />
        <NumberInput
          label={form.values.mode === 'set' ? 'New on-hand quantity' : 'Change (negative removes)'}
          description={amountPreview}
          allowDecimal={false}
          required
          {...form.getInputProps('amount')}
        />
        <TextInput label="Reason" placeholder="e.g. Stock count, damaged, delivery" maxLength={255} {...form.getInputProps('reason')} />
        <FormErrors form={form} title="Not adjusted" />
        <Group>
          <Button type="submit" loading={form.submitting}>
            Adjust stock
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Units reserved or released by hand; asks first with the figures before and after. */
export function ReservationForm({ record, variantId }: { record: Figures; variantId: string }) {
  const reserve = useChangeReservation(variantId);
  const form = useForm({
    initialValues: { change: '' as number | string, reason: '' },
    validateInputOnChange: ['change'],
    validate: {
      change: (value) =>
        typeof value !== 'number' || !Number.isInteger(value) || value === 0
          ? 'A whole number other than zero'
          : reservationRefusal(record, value),
      reason: (value) => (value.length > 255 ? 'At most 255 characters' : null),
    },
  });
  const typed = form.values.change;
  const changePreview =
    typeof typed === 'number' && Number.isInteger(typed) && typed !== 0 && !reservationRefusal(record, typed)
      ? previewLine(reservationPreview(record, typed))
      : undefined;
  return (
    <form
      noValidate
      onSubmit={submitWith(form, async (values, refuse) => {
        const change = Number(values.change);
        if (!(await confirmChange(change > 0 ? 'Reserve units?' : 'Release units?', reservationPreview(record, change)))) return;
        try {
          await reserve.mutateAsync({ change, ...(values.reason.trim() ? { reason: values.reason.trim() } : {}) });
          form.reset();
          notifyDone(change > 0 ? `${count(change)} reserved` : `${count(-change)} released`);
        } catch (error) {
          // RESERVATION_HELD says how many units open orders hold, and so how many may be released.
          refuse({ change: describeBriefly(error) });
        }
      })}
    >
      <LeaveGuard form={form} />
      <Stack>
        <NumberInput
          label="Reserve (positive) or release (negative)"
          description={changePreview}
          allowDecimal={false}
          required
          {...form.getInputProps('change')}
        />
        <TextInput label="Reason" maxLength={255} {...form.getInputProps('reason')} />
        <Group>
          <Button type="submit" variant="light" loading={form.submitting}>
            Apply to reservation
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The level at or below which the record is low stock; empty for none. */
export function ReorderLevelForm({ record, variantId }: { record: Figures; variantId: string }) {
  const update = useUpdateStockRecord(variantId);
  const form = useForm({
    initialValues: { level: (record.reorder_level ?? '') as number | string },
    validate: {
      level: (value) =>
        value === '' || (typeof value === 'number' && Number.isInteger(value) && value >= 0)
          ? null
          : 'A whole number, 0 or more, or empty for none',
    },
  });
  return (
    <form
      noValidate
      onSubmit={submitWith(form, async (values, refuse) => {
        const level = values.level === '' ? null : Number(values.level);
        try {
          await update.mutateAsync({ reorder_level: level });
          notifyDone(level === null ? 'No reorder level: this stock never shows as low stock' : `Low stock at ${count(level)} or fewer`);
        } catch (error) {
          refuse({ level: describeBriefly(error) });
        }
      })}
    >
      <LeaveGuard form={form} />
      <Group align="flex-end">
        <NumberInput
          label="Reorder level"
          description={REORDER_LEVEL_HINT}
          allowDecimal={false}
          min={0}
          w={240}
          {...form.getInputProps('level')}
        />
        <Button type="submit" variant="default" loading={form.submitting}>
          Save level
        </Button>
      </Group>
    </form>
  );
}
