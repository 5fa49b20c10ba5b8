import {
  ActionIcon,
  Anchor,
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { api } from '../api';
import { FormErrors, ModalFormFooter } from '../components/FormErrors';
import { StatusBadge } from '../components/StatusBadge';
import { notifyDone, notifyError, placeErrors } from '../lib/errors';
import { count, money } from '../lib/format';

const MONEY = /^\d{1,10}(\.\d{1,2})?$/;
const WHOLE = /^\d{1,10}$/;
/** Variant fields the API names differently from the forms: every `options.<name>` error belongs to the Options input. */
const variantField = (field: string) => (field.startsWith('options.') ? 'options' : field);

/** "size=M, colour=Blue" to { size: 'M', colour: 'Blue' }; null when a part has no "=". */
function parseOptions(text: string): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, ...rest] = part.split('=');
    const value = rest.join('=').trim();
    if (!name?.trim() || !value) return null;
    out[name.trim()] = value;
  }
  return out;
}

export interface VariantFacts {
  public_id: string;
  sku: string;
  name: string;
  options: Record<string, string>;
  price: string;
  cost_price: string | null;
  status: 'ACTIVE' | 'INACTIVE';
  inventory: { quantity_on_hand: number; quantity_reserved: number; quantity_available: number } | null;
}

export function VariantForm({ productId, onDone }: { productId: string; onDone: () => void }) {
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
        let variantId: string;
        try {
          const created = await api.POST('/api/v1/admin/products/{product_public_id}/variants', {
            params: { path: { product_public_id: productId } },
            body: {
              sku: values.sku.trim(),
              name: values.name.trim(),
              options: parseOptions(values.options) ?? {},
              price: values.price.trim(),
              ...(values.cost_price.trim() ? { cost_price: values.cost_price.trim() } : {}),
            },
          });
          variantId = created.data.public_id;
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
        try {
          await api.POST('/api/v1/admin/inventory', { body: { variant_public_id: variantId, quantity_on_hand: Number(values.stock) } });
        } catch (error) {
          notifyError(error, 'The variant was added, but its stock was not recorded');
        }
        form.reset();
        onDone();
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

function VariantEditForm({ variant, onDone }: { variant: VariantFacts; onDone: () => void }) {
  const form = useForm({
    initialValues: {
      name: variant.name,
      options: Object.entries(variant.options)
        .map(([k, v]) => `${k}=${v}`)
        .join(', '),
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
          await api.PATCH('/api/v1/admin/variants/{variant_public_id}', {
            params: { path: { variant_public_id: variant.public_id } },
            body: {
              name: values.name.trim(),
              options: parseOptions(values.options) ?? {},
              price: values.price.trim(),
              cost_price: values.cost_price.trim() || null,
              status: values.status,
            },
          });
          modals.closeAll();
          onDone();
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
          data={[
            { value: 'ACTIVE', label: 'Active' },
            { value: 'INACTIVE', label: 'Inactive' },
          ]}
          {...form.getInputProps('status')}
        />
        <ModalFormFooter form={form} submit="Save variant" />
      </Stack>
    </form>
  );
}

/** For a variant made without one (through the API, or when recording its stock failed): its first stock record. */
function StockRecordForm({ variant, onDone }: { variant: VariantFacts; onDone: () => void }) {
  const form = useForm({
    initialValues: { stock: '' as number | string, reorder_level: '' as number | string },
    validate: {
      stock: (v) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 && WHOLE.test(String(v)) ? null : 'A whole number, 0 or more'),
      reorder_level: (v) =>
        v === '' || (typeof v === 'number' && Number.isInteger(v) && v >= 0) ? null : 'A whole number, 0 or more, or empty for none',
    },
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit(async (values) => {
        try {
          await api.POST('/api/v1/admin/inventory', {
            body: {
              variant_public_id: variant.public_id,
              quantity_on_hand: Number(values.stock),
              ...(values.reorder_level === '' ? {} : { reorder_level: Number(values.reorder_level) }),
            },
          });
          modals.closeAll();
          onDone();
          notifyDone(`Stock of ${variant.sku} recorded: ${count(Number(values.stock))} on hand`);
        } catch (error) {
          // INVENTORY_EXISTS (someone made it meanwhile) has no field: it shows above the buttons.
          form.setErrors(
            placeErrors(error, { inputs: ['stock', 'reorder_level'], rename: (f) => (f === 'quantity_on_hand' ? 'stock' : f) }),
          );
        }
      })}
    >
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
          description="Low stock at or below this; empty for none"
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

/** "The 2 units reserved by open orders stay reserved: …", in the singular for one unit. */
export function reservedByOrders(units: number): string {
  const one = units === 1;
  return `The ${count(units)} ${one ? 'unit' : 'units'} reserved by open orders ${one ? 'stays' : 'stay'} reserved: those orders still ship, or give ${one ? 'it' : 'them'} back if cancelled.`;
}

/**
 * What deleting a variant does, as the API does it (a soft delete, src/catalog/admin-service.ts): it
 * leaves the store, its stock record leaves Inventory, and open orders keep what they reserved.
 */
export function variantDeletionEffect(variant: VariantFacts): string {
  const stock = variant.inventory;
  const record = stock
    ? ` Its stock record (${count(stock.quantity_on_hand)} on hand) leaves Inventory and can no longer be adjusted.` +
      (stock.quantity_reserved > 0 ? ` ${reservedByOrders(stock.quantity_reserved)}` : '')
    : '';
  return `${variant.sku} can no longer be bought; carts holding it show it as unavailable.${record} Past orders keep their lines. There is no undo.`;
}

export function VariantsPanel({ productId, variants, onChange }: { productId: string; variants: VariantFacts[]; onChange: () => void }) {
  const remove = (v: VariantFacts) =>
    modals.openConfirmModal({
      title: `Delete variant ${v.sku}?`,
      children: <Text size="sm">{variantDeletionEffect(v)}</Text>,
      labels: { confirm: 'Delete variant', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        void (async () => {
          try {
            await api.DELETE('/api/v1/admin/variants/{variant_public_id}', { params: { path: { variant_public_id: v.public_id } } });
            onChange();
            notifyDone(`Variant ${v.sku} deleted`);
          } catch (error) {
            notifyError(error, 'Not deleted');
          }
        })(),
    });
  return (
    <>
      <Paper withBorder p="md" radius="md" mb="md">
        <Title order={2} size="h4" mb="sm">
          Variants
        </Title>
        {variants.length === 0 ? (
          <Text c="dimmed" size="sm" mb="sm">
            No variants yet: a product is sold through its variants.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={600}>
            <Table aria-label="Variants">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>SKU</Table.Th>
                  <Table.Th>Variant</Table.Th>
                  <Table.Th ta="right">Price</Table.Th>
                  <Table.Th ta="right">Cost</Table.Th>
                  <Table.Th ta="right">Available</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {variants.map((v) => (
                  <Table.Tr key={v.public_id}>
                    <Table.Td ff="monospace">{v.sku}</Table.Td>
                    <Table.Td>
                      {v.name}
                      <Text size="xs" c="dimmed">
                        {Object.entries(v.options)
                          .map(([k, value]) => `${k}: ${value}`)
                          .join(' · ')}
                      </Text>
                    </Table.Td>
                    <Table.Td ta="right">{money(v.price)}</Table.Td>
                    <Table.Td ta="right">{money(v.cost_price)}</Table.Td>
                    <Table.Td ta="right">
                      {v.inventory ? (
                        <Anchor renderRoot={(props) => <Link {...props} to="/inventory/$variantId" params={{ variantId: v.public_id }} />}>
                          {count(v.inventory.quantity_available)}
                        </Anchor>
                      ) : (
                        <Button
                          size="compact-xs"
                          variant="light"
                          aria-label={`Create stock record of ${v.sku}`}
                          onClick={() =>
                            modals.open({ title: `Stock of ${v.sku}`, children: <StockRecordForm variant={v} onDone={onChange} /> })
                          }
                        >
                          Create stock record
                        </Button>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <StatusBadge status={v.status} />
                    </Table.Td>
                    <Table.Td>
                      <Group gap={2} wrap="nowrap">
                        <ActionIcon
                          variant="subtle"
                          aria-label={`Edit variant ${v.sku}`}
                          onClick={() =>
                            modals.open({ title: `Edit ${v.sku}`, children: <VariantEditForm variant={v} onDone={onChange} /> })
                          }
                        >
                          <IconPencil size={16} />
                        </ActionIcon>
                        <ActionIcon variant="subtle" color="red" aria-label={`Delete variant ${v.sku}`} onClick={() => remove(v)}>
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h4" mb="sm">
          Add a variant
        </Title>
        <VariantForm productId={productId} onDone={onChange} />
      </Paper>
    </>
  );
}
