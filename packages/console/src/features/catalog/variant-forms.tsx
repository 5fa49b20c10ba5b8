import { Button, Group, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { VARIANT_STATUSES } from '../../api/domain';
import { FormErrors, ModalFormFooter } from '../../components/FormErrors';
import { placeErrors } from '../../lib/errors';
import { titleCase } from '../../lib/format';
import { notifyDone, notifyError } from '../../lib/notify';
import { useAddVariant, useUpdateVariant, type Variant } from './products-api';
import { MONEY, optionsText, parseOptions, variantField } from './variant-rules';

/** A new variant of the product, with the stock it starts with. */
export function VariantForm({ productId }: { productId: string }) {
  const add = useAddVariant(productId);
  const form = useForm({
    initialValues: { sku: '', name: '', options: '', price: '', cost_price: '', stock: '0' },
    validate: {
      sku: (v) =>
        /^[A-Za-z0-9][A-Za-z0-9._/-]{0,79}$/.test(v.trim()) ? null : 'Letters, digits and . _ / -, starting with a letter or digit',
      name: (v) => (v.trim() ? null : 'Name the variant, e.g. "Blue, M"'),
      options: (v) => (parseOptions(v) ? null : 'Write options as name=value, separated by commas'),
      price: (v) => (MONEY.test(v.trim()) ? null : 'A price like 19.90'),
      cost_price: (v) => (v.trim() === '' || MONEY.test(v.trim()) ? null : 'A cost like 8.50, or empty'),
      stock: (v) => (/^\d{1,9}$/.test(v.trim()) ? null : 'A whole number, 0 or more'),
    },
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit(async (values) => {
        let added;
        try {
          added = await add.mutateAsync({
            variant: {
              sku: values.sku.trim(),
              name: values.name.trim(),
              options: parseOptions(values.options) ?? {},
              price: values.price.trim(),
              ...(values.cost_price.trim() ? { cost_price: values.cost_price.trim() } : {}),
            },
            stock: Number(values.stock),
          });
        } catch (error) {
          form.setErrors(
            placeErrors(error, {
              inputs: ['sku', 'name', 'options', 'price', 'cost_price'],
              codes: { SKU_TAKEN: 'sku' },
              rename: variantField,
            }),
          );
          return;
        }
        if (added.stockError) notifyError(added.stockError, 'The variant was added, but its stock was not recorded');
        form.reset();
        notifyDone(`Variant ${values.sku.trim()} added`);
      })}
    >
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput label="SKU" required maxLength={80} {...form.getInputProps('sku')} />
        <TextInput label="Variant name" required maxLength={200} {...form.getInputProps('name')} />
        <TextInput label="Options" placeholder="size=M, colour=Blue" {...form.getInputProps('options')} />
        <TextInput label="Price" required inputMode="decimal" {...form.getInputProps('price')} />
        <TextInput
          label="Cost price"
          description="For the P&L; empty if unknown"
          inputMode="decimal"
          {...form.getInputProps('cost_price')}
        />
        <TextInput label="Initial stock" inputMode="numeric" {...form.getInputProps('stock')} />
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
export function VariantEditForm({ variant }: { variant: Variant }) {
  const update = useUpdateVariant(variant.public_id);
  const form = useForm({
    initialValues: {
      name: variant.name,
      options: optionsText(variant.options),
      price: variant.price,
      cost_price: variant.cost_price ?? '',
      status: variant.status,
    },
    validate: {
      name: (v) => (v.trim() ? null : 'Name the variant'),
      options: (v) => (parseOptions(v) ? null : 'Write options as name=value, separated by commas'),
      price: (v) => (MONEY.test(v.trim()) ? null : 'A price like 19.90'),
      cost_price: (v) => (v.trim() === '' || MONEY.test(v.trim()) ? null : 'A cost like 8.50, or empty'),
    },
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit(async (values) => {
        try {
          await update.mutateAsync({
            name: values.name.trim(),
            options: parseOptions(values.options) ?? {},
            price: values.price.trim(),
            cost_price: values.cost_price.trim() || null,
            status: values.status,
          });
          modals.closeAll();
          notifyDone(`Variant ${variant.sku} saved`);
        } catch (error) {
          form.setErrors(placeErrors(error, { inputs: ['name', 'options', 'price', 'cost_price', 'status'], rename: variantField }));
        }
      })}
    >
      <Stack>
        <TextInput label="Variant name" required maxLength={200} data-autofocus {...form.getInputProps('name')} />
        <TextInput label="Options" placeholder="size=M, colour=Blue" {...form.getInputProps('options')} />
        <Group grow>
          <TextInput label="Price" required inputMode="decimal" {...form.getInputProps('price')} />
          <TextInput label="Cost price" inputMode="decimal" {...form.getInputProps('cost_price')} />
        </Group>
        <Select
          label="Variant status"
          description="Inactive variants cannot be bought"
          allowDeselect={false}
          data={VARIANT_STATUSES.map((status) => ({ value: status, label: titleCase(status) }))}
          {...form.getInputProps('status')}
        />
        <ModalFormFooter form={form} submit="Save variant" />
      </Stack>
    </form>
  );
}
