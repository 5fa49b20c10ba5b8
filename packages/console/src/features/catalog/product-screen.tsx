import { Alert, Anchor, Button, Group, Paper, Stack, Title } from '@mantine/core';
import { IconCopy, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { confirmThen } from '../../lib/confirm';
import { when } from '../../lib/format';
import { notifyDone } from '../../lib/notify';
import { ProductForm } from './product-form';
import {
  productQuery,
  useCreateProduct,
  useDeleteProduct,
  useDuplicateProduct,
  useUpdateProduct,
  type ProductDetail,
} from './products-api';
import { productDeletionEffect } from './variant-rules';
import { VariantsPanel } from './variants-panel';

export function NewProductScreen() {
  const navigate = useNavigate();
  const create = useCreateProduct();
  return (
    <>
      <PageHeader title="New product" subtitle="Save it first, then add its variants" />
      <Paper withBorder p="md" radius="md" maw={900}>
        <ProductForm
          initial={null}
          submitLabel="Create product"
          onSubmit={async (body) => {
            const created = await create.mutateAsync(body);
            notifyDone(
              <>
                <bdi>{created.name}</bdi> created
              </>,
            );
            await navigate({ to: '/products/$productId', params: { productId: created.public_id } });
          }}
        />
      </Paper>
    </>
  );
}

export function ProductScreen() {
  const { productId } = useParams({ from: '/staff/products/$productId' });
  const product = useQuery(productQuery(productId));
  return (
    <QueryState
      query={product}
      screen="Product"
      back={
        <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/products" />}>
          ← All products
        </Anchor>
      }
    >
      {(p) => <ProductView key={p.public_id} product={p} />}
    </QueryState>
  );
}

/** A product: its details to edit and its variants, or, once deleted, what it was (orders and the audit log link here). */
function ProductView({ product: p }: { product: ProductDetail }) {
  const navigate = useNavigate();
  const update = useUpdateProduct(p.public_id);
  const deletion = useDeleteProduct(p.public_id);
  const duplication = useDuplicateProduct(p.public_id);
  const duplicate = () =>
    confirmThen({
      title: (
        <>
          Copy <bdi>{p.name}</bdi>?
        </>
      ),
      body: 'The copy is a draft, out of the store, with the same description, images and categories, a new address, and each variant with a new SKU (ending in -COPY) and no stock yet.',
      confirm: 'Make a copy',
      cancel: 'Back',
      danger: false,
      action: () => duplication.mutateAsync(),
      done: (copy) => (
        <>
          <bdi>{copy.name}</bdi> made, as a draft
        </>
      ),
      failed: 'Not copied',
      after: (copy) => navigate({ to: '/products/$productId', params: { productId: copy.public_id } }),
    });
  const remove = () =>
    confirmThen({
      title: (
        <>
          Delete <bdi>{p.name}</bdi>?
        </>
      ),
      body: productDeletionEffect(p.variants),
      confirm: 'Delete product',
      action: () => deletion.mutateAsync(),
      done: (
        <>
          <bdi>{p.name}</bdi> deleted
        </>
      ),
      failed: 'Not deleted',
      after: () => navigate({ to: '/products' }),
    });
  return (
    <>
      <PageHeader
        title={<bdi>{p.name}</bdi>}
        tabTitle={p.name}
        subtitle={
          <Group gap="xs" component="span">
            <StatusBadge status={p.deleted_at ? 'DELETED' : p.status} /> <bdi>/{p.slug}</bdi>
          </Group>
        }
        actions={
          p.deleted_at ? null : (
            <>
              <Button variant="default" leftSection={<IconCopy size={16} />} loading={duplication.isPending} onClick={duplicate}>
                Duplicate
              </Button>
              <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={remove}>
                Delete product
              </Button>
            </>
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
        // Stacked: the variants table needs the whole width for every column to be in view.
        <Stack gap="md">
          <Paper withBorder p="md" radius="md">
            <Title order={2} size="h4" mb="sm">
              Details
            </Title>
            <ProductForm
              key={p.updated_at}
              initial={p}
              submitLabel="Save product"
              onSubmit={async (body) => {
                await update.mutateAsync(body);
                notifyDone('Product saved');
              }}
            />
          </Paper>
          <VariantsPanel product={p} />
        </Stack>
      )}
    </>
  );
}
