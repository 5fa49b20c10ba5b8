import { ActionIcon, Button, Group, NumberInput, SimpleGrid, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconX } from '@tabler/icons-react';
import { REORDER_LEVEL_HINT } from '../../api/settings';
import { FormErrors } from '../../components/FormErrors';
import { placeErrors } from '../../lib/errors';
import { count } from '../../lib/format';
import { submitWith } from '../../lib/form-submit';
import { LeaveGuard } from '../../lib/leave-guard';
import { notifyDone } from '../../lib/notify';
import { useAsk } from '../../lib/confirm-question';
import { confirmFreeVariants } from './confirm-price';
import { useAddVariants, type ProductDetail } from './products-api';
import {
  combinations,
  comboName,
  comboSku,
  gridBatch,
  gridField,
  MAX_GRID_ROWS,
  sameOptions,
  skuPrefix,
  type GridValues,
} from './variant-grid-rules';
import { VariantGridRows } from './variant-grid-rows';
import { compareAtError, isZero, MONEY, optionalMoney, reorderLevelError, SKU } from './variant-rules';

const WHOLE = /^\d{1,9}$/;

/**
 * Variants in one step: the option values picked (sizes S, M, L × colours Red, Blue) make every
 * combination a row, with a name, a SKU and the prices, stock and reorder level given once for all;
 * each row can then be changed or dropped, and all are added together (all or none). Combinations
 * the product already has are left out.
 */
export function VariantGrid({ product, defaultReorderLevel }: { product: ProductDetail; defaultReorderLevel: number | null }) {
  const add = useAddVariants(product.public_id);
  const ask = useAsk();
  const form = useForm<GridValues>({
    initialValues: {
      axes: [
        { name: 'size', values: [] },
        { name: 'colour', values: [] },
      ],
      prefix: skuPrefix(product.slug),
      price: '',
      compare_at_price: '',
      cost_price: '',
      stock: '0',
      reorder_level: defaultReorderLevel ?? '',
      rows: [],
    },
    validate: {
      rows: {
        name: (v) => (v.trim() ? null : 'Name it'),
        sku: (v) => (SKU.test(v.trim()) ? null : 'Letters, digits and . _ / -'),
        price: (v) => (MONEY.test(v.trim()) ? null : 'A price like 19.90'),
        compare_at_price: compareAtError,
        cost_price: optionalMoney('A cost like 8.50, or empty'),
        stock: (v) => (WHOLE.test(v.trim()) ? null : 'A whole number'),
        reorder_level: reorderLevelError,
      },
    },
  });
  const live = product.variants.filter((v) => !v.deleted_at);
  const combos = combinations(form.values.axes);
  const taken = combos.filter((combo) => live.some((v) => sameOptions(v.options, combo)));
  const fresh = combos.filter((combo) => !taken.includes(combo));

  const generate = () => {
    const v = form.values;
    form.setFieldValue(
      'rows',
      fresh.slice(0, MAX_GRID_ROWS).map((options) => ({
        options,
        name: comboName(options),
        sku: comboSku(v.prefix, options),
        price: v.price,
        compare_at_price: v.compare_at_price,
        cost_price: v.cost_price,
        stock: v.stock,
        reorder_level: v.reorder_level,
      })),
    );
  };

  const rows = form.values.rows;
  return (
    <form
      noValidate
      onSubmit={submitWith(form, async (values, refuse) => {
        const free = values.rows.filter((row) => isZero(row.price)).map((row) => row.sku.trim());
        if (free.length > 0 && !(await confirmFreeVariants(ask, free))) return;
        const body = gridBatch(values.rows);
        try {
          await add.mutateAsync(body);
        } catch (error) {
          // The API names a refused row as variants.N.<field>; the grid's row N has that input.
          refuse(
            placeErrors(error, {
              inputs: [/^rows\.\d+\.(sku|name|price|compare_at_price|cost_price|stock|reorder_level)$/],
              rename: gridField,
              label: (field) => {
                const row = /^rows\.(\d+)/.exec(field);
                return row ? `Row ${Number(row[1]) + 1}` : undefined;
              },
            }),
          );
          return;
        }
        notifyDone(`${count(values.rows.length)} ${values.rows.length === 1 ? 'variant' : 'variants'} added`);
        form.reset();
      })}
    >
      <LeaveGuard form={form} />
      <Stack>
        <Text size="sm" c="dimmed">
          Pick the values of each option; every combination becomes a variant, with the prices and stock given once below.
        </Text>
        {form.values.axes.map((axis, index) => (
          <Group key={index} align="flex-end" gap="sm" wrap="nowrap">
            <TextInput label={`Option ${index + 1}`} placeholder="e.g. size" w={160} {...form.getInputProps(`axes.${index}.name`)} />
            <TagsInput
              label={`Values of option ${index + 1}`}
              placeholder="Type a value, then Enter"
              style={{ flex: 1 }}
              maxTags={50}
              {...form.getInputProps(`axes.${index}.values`)}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              mb={4}
              aria-label={`Remove option ${index + 1}`}
              onClick={() => form.removeListItem('axes', index)}
            >
              <IconX size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Group>
          <Button
            size="xs"
            variant="subtle"
            leftSection={<IconPlus size={14} />}
            disabled={form.values.axes.length >= 3}
            onClick={() => form.insertListItem('axes', { name: '', values: [] })}
          >
            Add an option
          </Button>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 3, lg: 7 }}>
          <TextInput label="SKU prefix" {...form.getInputProps('prefix')} />
          <TextInput label="Price for all" inputMode="decimal" {...form.getInputProps('price')} />
          <TextInput label="Compare-at for all" inputMode="decimal" {...form.getInputProps('compare_at_price')} />
          <TextInput label="Cost for all" inputMode="decimal" {...form.getInputProps('cost_price')} />
          <TextInput label="Stock for each" inputMode="numeric" {...form.getInputProps('stock')} />
          <NumberInput
            label="Reorder level for each"
            allowDecimal={false}
            allowNegative={false}
            min={0}
            {...form.getInputProps('reorder_level')}
          />
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          Reorder level: {REORDER_LEVEL_HINT}
        </Text>
        <Group>
          <Button variant="default" disabled={fresh.length === 0} onClick={generate}>
            {fresh.length > MAX_GRID_ROWS
              ? `Make the first ${MAX_GRID_ROWS} of ${count(fresh.length)} rows`
              : `Make ${count(fresh.length)} ${fresh.length === 1 ? 'row' : 'rows'}`}
          </Button>
          {taken.length > 0 ? (
            <Text size="sm" c="dimmed">
              {count(taken.length)} {taken.length === 1 ? 'combination is' : 'combinations are'} already a variant and left out.
            </Text>
          ) : null}
        </Group>
        {rows.length > 0 ? <VariantGridRows form={form} /> : null}
        <FormErrors form={form} title="Variants not added" />
        <Group>
          <Button type="submit" disabled={rows.length === 0} loading={form.submitting}>
            {rows.length === 0 ? 'Add variants' : `Add ${count(rows.length)} ${rows.length === 1 ? 'variant' : 'variants'}`}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
