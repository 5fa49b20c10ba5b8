import { Button, Group, NumberInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { VARIANT_STATUSES } from '../../api/domain';
import { REORDER_LEVEL_HINT } from '../../api/settings';
import { FormErrors, ModalFormFooter } from '../../components/FormErrors';
import { placeErrors, type Placement } from '../../lib/errors';
import { titleCase } from '../../lib/format';
import { submitWith } from '../../lib/form-submit';
import { LeaveGuard } from '../../lib/leave-guard';
import { notifyDone, notifyError } from '../../lib/notify';
import { useAsk } from '../../lib/confirm-question';
import { confirmFreeVariants } from './confirm-price';
import { ImagesField, type ImageValue } from './images-field';
import { useAddVariant, useUpdateVariant, type Variant } from './products-api';
import {
  compareAtError,
  isZero,
  MONEY,
  optionalMoney,
  optionsText,
  parseOptions,
  reorderLevelError,
  SKU,
  variantField,
} from './variant-rules';

/**
 * The variant fields both forms have an input for. VARIANT_OPTIONS_TAKEN (another variant of the
 * product has these option values) names `options` in its details, and so shows at Options.
 */
const VARIANT_ERRORS: Placement = {
  inputs: ['sku', 'name', 'options', 'price', 'compare_at_price', 'cost_price', 'status', 'reorder_level'],
  codes: { SKU_TAKEN: 'sku' },
  rename: variantField,
};

/**
 * A new variant of the product, with the stock it starts with and its reorder level (the store's
 * default offered; empty means it never shows as low stock).
 */
export function VariantForm({ productId, defaultReorderLevel }: { productId: string; defaultReorderLevel: number | null }) {
  const add = useAddVariant(productId);
  const ask = useAsk();
  const form = useForm({
    initialValues: {
      sku: '',
      name: '',
      options: '',
      price: '',
      compare_at_price: '',
      cost_price: '',
      stock: '0',
      reorder_level: (defaultReorderLevel ?? '') as number | string,
    },
    validate: {
      sku: (v) => (SKU.test(v.trim()) ? null : 'Letters, digits and . _ / -, starting with a letter or digit'),
      name: (v) => (v.trim() ? null : 'Name the variant, e.g. "Blue, M"'),
      options: (v) => (parseOptions(v) ? null : 'Write options as name=value, separated by commas'),
      price: (v) => (MONEY.test(v.trim()) ? null : 'A price like 19.90'),
      compare_at_price: compareAtError,
      cost_price: optionalMoney('A cost like 8.50, or empty'),
      stock: (v) => (/^\d{1,9}$/.test(v.trim()) ? null : 'A whole number, 0 or more'),
      reorder_level: reorderLevelError,
    },
  });
  return (
    <form
      noValidate
      onSubmit={submitWith(form, async (values, refuse) => {
        const sku = values.sku.trim();
        if (isZero(values.price) && !(await confirmFreeVariants(ask, [sku]))) return;
        let added;
        try {
          added = await add.mutateAsync({
            variant: {
              sku,
              name: values.name.trim(),
              options: parseOptions(values.options) ?? {},
              price: values.price.trim(),
              ...(values.compare_at_price.trim() ? { compare_at_price: values.compare_at_price.trim() } : {}),
              ...(values.cost_price.trim() ? { cost_price: values.cost_price.trim() } : {}),
            },
            stock: Number(values.stock),
            reorderLevel: values.reorder_level === '' ? null : Number(values.reorder_level),
          });
        } catch (error) {
          refuse(placeErrors(error, VARIANT_ERRORS));
          return;
        }
        if (added.stockError) notifyError(added.stockError, 'The variant was added, but its stock was not recorded');
        form.reset();
        notifyDone(`Variant ${sku} added`);
      })}
    >
      <LeaveGuard form={form} />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        <TextInput label="SKU" required maxLength={80} {...form.getInputProps('sku')} />
        <TextInput label="Variant name" required maxLength={200} {...form.getInputProps('name')} />
        <TextInput label="Options" placeholder="size=M, colour=Blue" {...form.getInputProps('options')} />
        <TextInput label="Price" required inputMode="decimal" {...form.getInputProps('price')} />
        <TextInput
          label="Compare-at price"
          description="The former price, shown struck out; empty for none"
          inputMode="decimal"
          {...form.getInputProps('compare_at_price')}
        />
        <TextInput
          label="Cost price"
          description="For the P&L; empty if unknown"
          inputMode="decimal"
          {...form.getInputProps('cost_price')}
        />
        <TextInput label="Initial stock" inputMode="numeric" {...form.getInputProps('stock')} />
        <NumberInput
          label="Reorder level"
          description={REORDER_LEVEL_HINT}
          allowDecimal={false}
          allowNegative={false}
          min={0}
          {...form.getInputProps('reorder_level')}
        />
      </SimpleGrid>
      <Stack mt="sm">
        <FormErrors form={form} title="Variant not added" />
        <Group>
          <Button type="submit" variant="light" loading={form.submitting}>
            Add variant
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** A variant's name, options, prices and whether it is on sale; its SKU stays. */
export function VariantEditForm({ variant, productImages = [] }: { variant: Variant; productImages?: readonly ImageValue[] }) {
  const update = useUpdateVariant(variant.public_id);
  const ask = useAsk();
  const form = useForm({
    initialValues: {
      name: variant.name,
      options: optionsText(variant.options),
      price: variant.price,
      compare_at_price: variant.compare_at_price ?? '',
      cost_price: variant.cost_price ?? '',
      status: variant.status,
      images: variant.images.map((image) => ({ url: image.url, alt_text: image.alt_text ?? '' })),
    },
    validate: {
      name: (v) => (v.trim() ? null : 'Name the variant'),
      options: (v) => (parseOptions(v) ? null : 'Write options as name=value, separated by commas'),
      price: (v) => (MONEY.test(v.trim()) ? null : 'A price like 19.90'),
      compare_at_price: compareAtError,
      cost_price: optionalMoney('A cost like 8.50, or empty'),
    },
  });
  return (
    <form
      noValidate
      onSubmit={submitWith(form, async (values, refuse) => {
        if (isZero(values.price) && !isZero(variant.price) && !(await confirmFreeVariants(ask, [variant.sku]))) return;
        try {
          await update.mutateAsync({
            name: values.name.trim(),
            options: parseOptions(values.options) ?? {},
            price: values.price.trim(),
            compare_at_price: values.compare_at_price.trim() || null,
            cost_price: values.cost_price.trim() || null,
            status: values.status,
            images: values.images.map((image) => ({ url: image.url, alt_text: image.alt_text.trim() || null })),
          });
          modals.closeAll();
          notifyDone(`Variant ${variant.sku} saved`);
        } catch (error) {
          refuse(placeErrors(error, { ...VARIANT_ERRORS, inputs: [...VARIANT_ERRORS.inputs, /^images\.\d+\.alt_text$/] }));
        }
      })}
    >
      <LeaveGuard form={form} />
      <Stack>
        <TextInput label="Variant name" required maxLength={200} data-autofocus {...form.getInputProps('name')} />
        <TextInput label="Options" placeholder="size=M, colour=Blue" {...form.getInputProps('options')} />
        <Group grow align="flex-start">
          <TextInput label="Price" required inputMode="decimal" {...form.getInputProps('price')} />
          <TextInput label="Compare-at price" inputMode="decimal" {...form.getInputProps('compare_at_price')} />
          <TextInput label="Cost price" inputMode="decimal" {...form.getInputProps('cost_price')} />
        </Group>
        <Select
          label="Variant status"
          description="Inactive variants cannot be bought"
          allowDeselect={false}
          data={VARIANT_STATUSES.map((status) => ({ value: status, label: titleCase(status) }))}
          {...form.getInputProps('status')}
        />
        <ImagesField
          label="Images of this variant"
          images={form.values.images}
          onAdd={(image) => form.insertListItem('images', image)}
          onRemove={(index) => form.removeListItem('images', index)}
          altTextProps={(index) => form.getInputProps(`images.${index}.alt_text`)}
          choices={productImages}
        />
        <ModalFormFooter form={form} submit="Save variant" />
      </Stack>
    </form>
  );
}
