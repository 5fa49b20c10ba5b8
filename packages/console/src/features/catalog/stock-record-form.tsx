import { NumberInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { ModalFormFooter } from '../../components/FormErrors';
import { placeErrors } from '../../lib/errors';
import { count } from '../../lib/format';
import { notifyDone } from '../../lib/notify';
import { useCreateStockRecord, type Variant } from './products-api';
import { reorderLevelError, WHOLE } from './variant-rules';
import { REORDER_LEVEL_HINT } from '../../api/settings';
import { submitWith } from '../../lib/form-submit';
import { LeaveGuard } from '../../lib/leave-guard';

/** For a variant made without one (through the API, or when recording its stock failed): its first stock record. */
export function StockRecordForm({ variant, defaultReorderLevel }: { variant: Variant; defaultReorderLevel: number | null }) {
  const create = useCreateStockRecord();
  const form = useForm({
    initialValues: { stock: '' as number | string, reorder_level: (defaultReorderLevel ?? '') as number | string },
    validate: {
      stock: (v) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 && WHOLE.test(String(v)) ? null : 'A whole number, 0 or more'),
      reorder_level: reorderLevelError,
    },
  });
  return (
    <form
      noValidate
      onSubmit={submitWith(form, async (values, refuse) => {
        try {
          await create.mutateAsync({
            variant_public_id: variant.public_id,
            quantity_on_hand: Number(values.stock),
            ...(values.reorder_level === '' ? {} : { reorder_level: Number(values.reorder_level) }),
          });
          modals.closeAll();
          notifyDone(`Stock of ${variant.sku} recorded: ${count(Number(values.stock))} on hand`);
        } catch (error) {
          // INVENTORY_EXISTS (someone made it meanwhile) has no field: it shows above the buttons.
          refuse(placeErrors(error, { inputs: ['stock', 'reorder_level'], rename: (f) => (f === 'quantity_on_hand' ? 'stock' : f) }));
        }
      })}
    >
      <LeaveGuard form={form} />
      <Stack>
        <Text size="sm">
          {variant.sku} has no stock record, so it cannot be sold. The units you count now become its on-hand stock; the movement is
          recorded.
        </Text>
        <NumberInput
          label="On hand"
          required
          allowDecimal={false}
          allowNegative={false}
          min={0}
          data-autofocus
          {...form.getInputProps('stock')}
        />
        <NumberInput
          label="Reorder level"
          description={REORDER_LEVEL_HINT}
          allowDecimal={false}
          allowNegative={false}
          min={0}
          {...form.getInputProps('reorder_level')}
        />
        <ModalFormFooter form={form} submit="Create stock record" errorsTitle="Not recorded" />
      </Stack>
    </form>
  );
}
