import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  FileButton,
  Grid,
  Group,
  Image,
  MultiSelect,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { IconPhotoPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { api } from '../api';
import { FormErrors } from '../components/FormErrors';
import { PageHeader } from '../components/PageHeader';
import { QueryState } from '../components/QueryState';
import { StatusBadge } from '../components/StatusBadge';
import { notifyDone, notifyError, placeErrors } from '../lib/errors';
import { count, titleCase, when } from '../lib/format';
import { allCategoriesQuery } from '../queries/categories';
import { PRODUCT_STATUSES } from '../routes/catalog';
import { reservedByOrders, VariantsPanel, type VariantFacts } from './product-variants';

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

/** Fields of the product form with an input; an error for any other (an image's URL) shows above the button. */
const PRODUCT_ERRORS = {
  inputs: ['name', 'slug', 'brand', 'description', 'status', 'category_public_ids', /^images\.\d+\.alt_text$/],
  codes: { SLUG_TAKEN: 'slug' },
  label: (field: string) => {
    const image = /^images\.(\d+)/.exec(field);
    if (image) return `Image ${Number(image[1]) + 1}`;
    return field.startsWith('category_public_ids') ? 'Categories' : undefined;
  },
};

/** `onSubmit` throws the API's refusal; the form puts it next to the fields, or above the button. */
function ProductForm({
  initial,
  submitLabel,
  onSubmit,
}: {
  initial: ProductFacts | null;
  submitLabel: string;
  onSubmit: (body: Record<string, unknown>) => Promise<void>;
}) {
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
      slug: (value) =>
        value === '' || /^[a-z0-9]+(-[a-z0-9]+)*$/.test(value)
          ? null
          : 'Lower-case letters, digits and single dashes, or empty to generate one',
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
        try {
          await onSubmit({
            name: values.name.trim(),
            ...(values.slug ? { slug: values.slug } : {}),
            brand: values.brand.trim() || null,
            description: values.description,
            status: values.status,
            category_public_ids: values.category_public_ids,
            images: values.images.map((i) => ({ url: i.url, alt_text: i.alt_text.trim() || null })),
          });
        } catch (error) {
          form.setErrors(placeErrors(error, PRODUCT_ERRORS));
        }
      })}
    >
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Name" required maxLength={200} {...form.getInputProps('name')} />
          <TextInput
            label="Slug"
            description="The product's address in the store; empty to generate"
            maxLength={100}
            {...form.getInputProps('slug')}
          />
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
                <TextInput
                  size="xs"
                  aria-label={`Alt text of image ${index + 1}`}
                  placeholder="Alt text"
                  {...form.getInputProps(`images.${index}.alt_text`)}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Remove image ${index + 1}`}
                  onClick={() => form.removeListItem('images', index)}
                >
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
            const created = (await api.POST('/api/v1/admin/products', { body: body as never })).data;
            void queryClient.invalidateQueries({ queryKey: ['products'] });
            notifyDone(`${created.name} created`);
            await navigate({ to: '/products/$productId', params: { productId: created.public_id } });
          }}
        />
      </Paper>
    </>
  );
}

/** What deleting a product does, as the API does it: a soft delete of the product and every variant. */
function productDeletionEffect(variants: VariantFacts[]): string {
  const onHand = variants.reduce((n, v) => n + (v.inventory?.quantity_on_hand ?? 0), 0);
  const reserved = variants.reduce((n, v) => n + (v.inventory?.quantity_reserved ?? 0), 0);
  const parts = [
    variants.length === 0
      ? 'It leaves the store at once.'
      : `It leaves the store at once with its ${count(variants.length)} ${variants.length === 1 ? 'variant' : 'variants'}: nobody can buy them, and carts holding them show them as unavailable.`,
  ];
  if (variants.some((v) => v.inventory))
    parts.push(`Their stock records (${count(onHand)} on hand) leave Inventory and can no longer be adjusted.`);
  if (reserved > 0) parts.push(reservedByOrders(reserved));
  parts.push('Past orders keep their lines and totals. There is no undo.');
  return parts.join(' ');
}

export function ProductScreen() {
  const { productId } = useParams({ from: '/staff/products/$productId' });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const product = useQuery({
    queryKey: ['product', productId],
    queryFn: async () =>
      (await api.GET('/api/v1/admin/products/{product_public_id}', { params: { path: { product_public_id: productId } } })).data,
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['product', productId] });
    void queryClient.invalidateQueries({ queryKey: ['products'] });
    void queryClient.invalidateQueries({ queryKey: ['inventory'] });
  };
  const remove = (name: string, variants: VariantFacts[]) =>
    modals.openConfirmModal({
      title: `Delete ${name}?`,
      children: <Text size="sm">{productDeletionEffect(variants)}</Text>,
      labels: { confirm: 'Delete product', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        void (async () => {
          try {
            await api.DELETE('/api/v1/admin/products/{product_public_id}', { params: { path: { product_public_id: productId } } });
            void queryClient.invalidateQueries({ queryKey: ['products'] });
            void queryClient.invalidateQueries({ queryKey: ['inventory'] });
            queryClient.removeQueries({ queryKey: ['product', productId] });
            notifyDone(`${name} deleted`);
            await navigate({ to: '/products' });
          } catch (error) {
            notifyError(error, 'Not deleted');
          }
        })(),
    });
  return (
    <QueryState query={product}>
      {(p) => (
        <>
          <PageHeader
            title={p.name}
            subtitle={
              <Group gap="xs" component="span">
                <StatusBadge status={p.deleted_at ? 'DELETED' : p.status} /> /{p.slug}
              </Group>
            }
            actions={
              p.deleted_at ? null : (
                <Button
                  color="red"
                  variant="light"
                  leftSection={<IconTrash size={16} />}
                  onClick={() => remove(p.name, p.variants as VariantFacts[])}
                >
                  Delete product
                </Button>
              )
            }
          />
          <Anchor size="sm" mb="md" display="inline-block" renderRoot={(props) => <Link {...props} to="/products" />}>
            ← All products
          </Anchor>
          {p.deleted_at ? (
            // Orders and the audit log still link here: the product is shown as it was, read only.
            <Alert color="gray" mb="md" title={`Deleted ${when(p.deleted_at)}`}>
              This product is no longer in the catalog. Orders that contain it keep their lines.
            </Alert>
          ) : (
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
                      const updated = (
                        await api.PATCH('/api/v1/admin/products/{product_public_id}', {
                          params: { path: { product_public_id: productId } },
                          body: body as never,
                        })
                      ).data;
                      queryClient.setQueryData(['product', productId], updated);
                      void queryClient.invalidateQueries({ queryKey: ['products'] });
                      notifyDone('Product saved');
                    }}
                  />
                </Paper>
              </Grid.Col>
              <Grid.Col span={{ base: 12, xl: 6 }}>
                <VariantsPanel productId={productId} variants={p.variants as VariantFacts[]} onChange={refresh} />
              </Grid.Col>
            </Grid>
          )}
        </>
      )}
    </QueryState>
  );
}
