import { ActionIcon, Anchor, Button, FileButton, Grid, Group, Image, MultiSelect, Paper, Select, SimpleGrid, Stack, Table, Text, Textarea, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPencil, IconPhotoPlus, IconTrash } from '@tabler/icons-react';
import { modals } from '@mantine/modals';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { api } from '../api';
import { PageHeader } from '../components/PageHeader';
import { QueryState } from '../components/QueryState';
import { StatusBadge } from '../components/StatusBadge';
import { asRefusal, describe, fieldErrors, notifyDone, notifyError } from '../lib/errors';
import { count, money, titleCase } from '../lib/format';
import { allCategoriesQuery } from '../queries/categories';
import { PRODUCT_STATUSES } from '../routes/catalog';

const MONEY = /^\d{1,10}(\.\d{1,2})?$/;
type Status = (typeof PRODUCT_STATUSES)[number];

interface ProductFacts {
  name: string;
  slug: string;
  brand: string | null;
  description: string;
  status: Status;
  categories: { public_id: string }[];
  images: { url: string; alt_text: string | null }[];
}

function ProductForm({ initial, submitLabel, onSubmit }: { initial: ProductFacts | null; submitLabel: string; onSubmit: (body: Record<string, unknown>) => Promise<Record<string, string> | void> }) {
  const categories = useQuery(allCategoriesQuery);
  const [uploading, setUploading] = useState(false);
  const form = useForm({
    initialValues: {
      name: initial?.name ?? '',
      slug: initial?.slug ?? '',
      brand: initial?.brand ?? '',
      description: initial?.description ?? '',
      status: (initial?.status ?? 'DRAFT') as Status,
      category_public_ids: initial?.categories.map((c) => c.public_id) ?? [],
      images: initial?.images.map((i) => ({ url: i.url, alt_text: i.alt_text ?? '' })) ?? [],
    },
    validate: {
      name: (value) => (value.trim() === '' ? 'Name the product' : value.length > 200 ? 'At most 200 characters' : null),
      slug: (value) => (value === '' || /^[a-z0-9]+(-[a-z0-9]+)*$/.test(value) ? null : 'Lower-case letters, digits and single dashes, or empty to generate one'),
    },
  });
  const addImage = async (file: File | null) => {
    if (!file) return;
    setUploading(true);
    try {
      const uploaded = await api.upload(file, { context: 'products', fileName: file.name });
      form.insertListItem('images', { url: uploaded.url, alt_text: '' });
    } catch (error) {
      notifyError(error, 'Image not uploaded');
    } finally {
      setUploading(false);
    }
  };
  return (
    <form
      noValidate
      onSubmit={form.onSubmit(async (values) => {
        const errors = await onSubmit({
          name: values.name.trim(),
          ...(values.slug ? { slug: values.slug } : {}),
          brand: values.brand.trim() || null,
          description: values.description,
          status: values.status,
          category_public_ids: values.category_public_ids,
          images: values.images.map((i) => ({ url: i.url, alt_text: i.alt_text.trim() || null })),
        });
        if (errors) form.setErrors(errors);
      })}
    >
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Name" required maxLength={200} {...form.getInputProps('name')} />
          <TextInput label="Slug" description="The product's address in the store; empty to generate" maxLength={100} {...form.getInputProps('slug')} />
          <TextInput label="Brand" maxLength={100} {...form.getInputProps('brand')} />
          <Select
            label="Status"
            description="Only active products are in the store"
            allowDeselect={false}
            data={PRODUCT_STATUSES.map((s) => ({ value: s, label: titleCase(s) }))}
            {...form.getInputProps('status')}
          />
        </SimpleGrid>
        <Textarea label="Description" autosize minRows={3} maxLength={20000} {...form.getInputProps('description')} />
        <MultiSelect
          label="Categories"
          placeholder={categories.isPending ? 'Loading…' : 'Pick categories'}
          searchable
          data={(categories.data ?? []).map((c) => ({ value: c.public_id, label: c.name }))}
          {...form.getInputProps('category_public_ids')}
        />
        <div>
          <Text size="sm" fw={500} mb={4}>
            Images
          </Text>
          <Group gap="sm" align="flex-start">
            {form.values.images.map((image, index) => (
              <Stack key={image.url} gap={4} w={120}>
                <Image src={image.url} alt={image.alt_text || `Image ${index + 1}`} h={96} w={120} fit="cover" radius="sm" />
                <TextInput size="xs" aria-label={`Alt text of image ${index + 1}`} placeholder="Alt text" {...form.getInputProps(`images.${index}.alt_text`)} />
                <ActionIcon variant="subtle" color="red" aria-label={`Remove image ${index + 1}`} onClick={() => form.removeListItem('images', index)}>
                  <IconTrash size={16} />
                </ActionIcon>
              </Stack>
            ))}
            <FileButton onChange={(file) => void addImage(file)} accept="image/png,image/jpeg,image/gif,image/webp">
              {(props) => (
                <Button {...props} variant="default" loading={uploading} leftSection={<IconPhotoPlus size={16} />}>
                  Upload image
                </Button>
              )}
            </FileButton>
          </Group>
        </div>
        <Group>
          <Button type="submit" loading={form.submitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** "size=M, colour=Blue" to { size: 'M', colour: 'Blue' }; null when a part has no "=". */
function parseOptions(text: string): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [name, ...rest] = part.split('=');
    const value = rest.join('=').trim();
    if (!name?.trim() || !value) return null;
    out[name.trim()] = value;
  }
  return out;
}

function VariantForm({ productId, onDone }: { productId: string; onDone: () => void }) {
  const form = useForm({
    initialValues: { sku: '', name: '', options: '', price: '', cost_price: '', stock: '0' },
    validate: {
      sku: (v) => (/^[A-Za-z0-9][A-Za-z0-9._/-]{0,79}$/.test(v.trim()) ? null : 'Letters, digits and . _ / -, starting with a letter or digit'),
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
          const errors = fieldErrors(error);
          if (asRefusal(error)?.code === 'SKU_TAKEN') errors.sku = describe(error).replace(/ \(request [^)]+\)$/, '');
          if (Object.keys(errors).length === 0) notifyError(error, 'Variant not added');
          form.setErrors(errors);
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
        <TextInput label="Cost price" description="For the P&L; empty if unknown" inputMode="decimal" {...form.getInputProps('cost_price')} />
        <TextInput label="Initial stock" inputMode="numeric" {...form.getInputProps('stock')} />
      </SimpleGrid>
      <Group mt="sm">
        <Button type="submit" variant="light" loading={form.submitting}>
          Add variant
        </Button>
      </Group>
    </form>
  );
}

interface VariantFacts {
  public_id: string;
  sku: string;
  name: string;
  options: Record<string, string>;
  price: string;
  cost_price: string | null;
  status: 'ACTIVE' | 'INACTIVE';
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
          const errors = fieldErrors(error);
          if (Object.keys(errors).length === 0) notifyError(error, 'Not saved');
          form.setErrors(errors);
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
        <Group justify="flex-end">
          <Button variant="default" onClick={() => modals.closeAll()}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            Save variant
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function NewProductScreen() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <>
      <PageHeader title="New product" subtitle="Save it first, then add its variants" />
      <Paper withBorder p="md" radius="md" maw={900}>
        <ProductForm
          initial={null}
          submitLabel="Create product"
          onSubmit={async (body) => {
            try {
              const created = (await api.POST('/api/v1/admin/products', { body: body as never })).data;
              void queryClient.invalidateQueries({ queryKey: ['products'] });
              notifyDone(`${created.name} created`);
              await navigate({ to: '/products/$productId', params: { productId: created.public_id } });
            } catch (error) {
              const errors = fieldErrors(error);
              if (asRefusal(error)?.code === 'SLUG_TAKEN') errors.slug = 'Another product already uses this slug';
              if (Object.keys(errors).length === 0) notifyError(error, 'Not created');
              return errors;
            }
          }}
        />
      </Paper>
    </>
  );
}

export function ProductScreen() {
  const { productId } = useParams({ from: '/staff/products/$productId' });
  const queryClient = useQueryClient();
  const product = useQuery({
    queryKey: ['product', productId],
    queryFn: async () => (await api.GET('/api/v1/admin/products/{product_public_id}', { params: { path: { product_public_id: productId } } })).data,
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['product', productId] });
    void queryClient.invalidateQueries({ queryKey: ['products'] });
    void queryClient.invalidateQueries({ queryKey: ['inventory'] });
  };
  return (
    <QueryState query={product}>
      {(p) => (
        <>
          <PageHeader
            title={p.name}
            subtitle={
              <Group gap="xs" component="span">
                <StatusBadge status={p.status} /> /{p.slug}
              </Group>
            }
          />
          <Anchor size="sm" mb="md" display="inline-block" renderRoot={(props) => <Link {...props} to="/products" />}>
            ← All products
          </Anchor>
          <Grid gap="md">
            <Grid.Col span={{ base: 12, xl: 6 }}>
              <Paper withBorder p="md" radius="md">
                <Title order={2} size="h4" mb="sm">
                  Details
                </Title>
                <ProductForm
                  key={p.updated_at}
                  initial={p}
                  submitLabel="Save product"
                  onSubmit={async (body) => {
                    try {
                      const updated = (await api.PATCH('/api/v1/admin/products/{product_public_id}', { params: { path: { product_public_id: productId } }, body: body as never })).data;
                      queryClient.setQueryData(['product', productId], updated);
                      void queryClient.invalidateQueries({ queryKey: ['products'] });
                      notifyDone('Product saved');
                    } catch (error) {
                      const errors = fieldErrors(error);
                      if (asRefusal(error)?.code === 'SLUG_TAKEN') errors.slug = 'Another product already uses this slug';
                      if (Object.keys(errors).length === 0) notifyError(error, 'Not saved');
                      return errors;
                    }
                  }}
                />
              </Paper>
            </Grid.Col>
            <Grid.Col span={{ base: 12, xl: 6 }}>
              <Paper withBorder p="md" radius="md" mb="md">
                <Title order={2} size="h4" mb="sm">
                  Variants
                </Title>
                {p.variants.length === 0 ? (
                  <Text c="dimmed" size="sm" mb="sm">
                    No variants yet: a product is sold through its variants.
                  </Text>
                ) : (
                  <Table.ScrollContainer minWidth={560}>
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
                        {p.variants.map((v) => (
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
                                <Anchor renderRoot={(props) => <Link {...props} to="/inventory/$variantId" params={{ variantId: v.public_id }} />}>{count(v.inventory.quantity_available)}</Anchor>
                              ) : (
                                'No record'
                              )}
                            </Table.Td>
                            <Table.Td>
                              <StatusBadge status={v.status} />
                            </Table.Td>
                            <Table.Td>
                              <ActionIcon
                                variant="subtle"
                                aria-label={`Edit variant ${v.sku}`}
                                onClick={() => modals.open({ title: `Edit ${v.sku}`, children: <VariantEditForm variant={v} onDone={refresh} /> })}
                              >
                                <IconPencil size={16} />
                              </ActionIcon>
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
                <VariantForm productId={productId} onDone={refresh} />
              </Paper>
            </Grid.Col>
          </Grid>
        </>
      )}
    </QueryState>
  );
}
