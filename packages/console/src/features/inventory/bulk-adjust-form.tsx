import { NumberInput, Stack, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { showBulkOutcome } from '../../components/bulk-outcome';
import { ModalFormFooter } from '../../components/FormErrors';
import { placeErrors } from '../../lib/errors';
import { openFormModal } from '../../lib/form-modal';
import { count } from '../../lib/format';
import { submitWith } from '../../lib/form-submit';
import { LeaveGuard } from '../../lib/leave-guard';
import { useBulkAdjust } from './api';
import { adjustmentRefusal } from './figures';

export interface PickedRecord {
  variant_public_id: string;
  product_name: string;
  sku: string;
  quantity_on_hand: number;
  quantity_reserved: number;
  quantity_available: number;
  reorder_level: number | null;
}

/**
 * Many records adjusted at once with one reason (a delivery, a count): a change per record, the same
 * for all to start with. A change the API would refuse (on hand below zero) is refused at its row as
 * it is typed, and each row shows what on hand becomes; nothing refused is sent, and the summary then
 * says what was done and what was refused.
 */
export function BulkAdjustForm({ records, onDone }: { records: PickedRecord[]; onDone: () => void }) {
  const adjust = useBulkAdjust();
  const form = useForm({
    initialValues: { all: '' as number | string, changes: records.map(() => '' as number | string), reason: '' },
    validate: {
      reason: (value) =>
        value.trim() === '' ? 'Say why, for the movements and the audit log' : value.length > 255 ? 'At most 255 characters' : null,
    },
  });
  /** Each row's change, checked as the API would: a whole number other than zero, leaving on hand at zero or more. */
  const check = (changes: (number | string)[]) => {
    const errors: Record<string, string> = {};
    changes.forEach((change, index) => {
      const record = records[index]!;
      if (typeof change !== 'number' || !Number.isInteger(change) || change === 0)
        errors[`changes.${index}`] = 'A whole number other than zero';
      else {
        const refusal = adjustmentRefusal(record, 'change', change);
        if (refusal) errors[`changes.${index}`] = refusal;
      }
    });
    return errors;
  };
  const sku = new Map(records.map((r) => [r.variant_public_id, r.sku]));
  return (
    <form
      noValidate
      onSubmit={submitWith(form, async (values, refuse) => {
        const errors = check(values.changes);
        if (Object.keys(errors).length > 0) return refuse(errors);
        try {
          const result = await adjust.mutateAsync({
            reason: values.reason.trim(),
            adjustments: records.map((record, index) => ({
              variant_public_id: record.variant_public_id,
              quantity_change: Number(values.changes[index]),
            })),
          });
          modals.closeAll();
          onDone();
          showBulkOutcome(result, { done: result.done === 1 ? 'record adjusted' : 'records adjusted', name: (id) => sku.get(id) ?? id });
        } catch (error) {
          refuse(
            placeErrors(error, {
              inputs: ['reason', /^changes\.\d+$/],
              rename: (field) => field.replace(/^adjustments\.(\d+)\.quantity_change$/, 'changes.$1'),
            }),
          );
        }
      })}
    >
      <LeaveGuard form={form} />
      <Stack>
        <NumberInput
          label="Change for every record"
          description="Positive adds, negative removes; change one row below as needed"
          allowDecimal={false}
          w={260}
          value={form.values.all}
          onChange={(value) => {
            form.setFieldValue('all', value);
            form.setFieldValue(
              'changes',
              records.map(() => value),
            );
          }}
        />
        <Table aria-label="Records to adjust">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Record</Table.Th>
              <Table.Th ta="right">On hand</Table.Th>
              <Table.Th>Change</Table.Th>
              <Table.Th ta="right">After</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {records.map((record, index) => {
              const typed = form.values.changes[index];
              const change = typeof typed === 'number' && Number.isInteger(typed) && typed !== 0 ? typed : null;
              const refusal = change === null ? null : adjustmentRefusal(record, 'change', change);
              return (
                <Table.Tr key={record.variant_public_id}>
                  <Table.Td>
                    <bdi>{record.product_name}</bdi>
                    <Text size="xs" c="dimmed">
                      <bdi>{record.sku}</bdi>
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">{count(record.quantity_on_hand)}</Table.Td>
                  <Table.Td>
                    <NumberInput
                      aria-label={`Change of ${record.sku}`}
                      allowDecimal={false}
                      w={140}
                      {...form.getInputProps(`changes.${index}`)}
                      error={form.errors[`changes.${index}`] ?? refusal ?? undefined}
                    />
                  </Table.Td>
                  <Table.Td ta="right">{change !== null && !refusal ? count(record.quantity_on_hand + change) : '–'}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
        <TextInput
          label="Reason"
          required
          maxLength={255}
          placeholder="e.g. Delivery, stock count, damaged"
          {...form.getInputProps('reason')}
        />
        <ModalFormFooter
          form={form}
          submit={`Adjust ${count(records.length)} ${records.length === 1 ? 'record' : 'records'}`}
          errorsTitle="Not adjusted"
        />
      </Stack>
    </form>
  );
}

/** Opens the bulk adjustment for the records picked. */
export function openBulkAdjust(records: PickedRecord[], onDone: () => void): void {
  openFormModal({ title: 'Adjust stock', size: 'lg', children: <BulkAdjustForm records={records} onDone={onDone} /> });
}
