import { ActionIcon, Anchor, Button, Group, Image, Loader, Paper, Table, Tabs, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { settingsQuery } from '../../api/settings';
import { OptionsText } from '../../components/OptionsText';
import { StatusBadge } from '../../components/StatusBadge';
import { TableFrame } from '../../components/TableFrame';
import { confirmThen } from '../../lib/confirm';
import { openFormModal } from '../../lib/form-modal';
import { count, money } from '../../lib/format';
import { useDeleteVariant, type ProductDetail, type Variant } from './products-api';
import { VariantGrid } from './variant-grid';
import { StockRecordForm } from './stock-record-form';
import { VariantEditForm, VariantForm } from './variant-forms';
import { variantDeletionEffect } from './variant-rules';

/** The product's variants with their prices and what is available to sell, and a form to add one. */
export function VariantsPanel({ product }: { product: ProductDetail }) {
  const productId = product.public_id;
  const variants = product.variants;
  // A variant may show one of its product's images, picked rather than uploaded again.
  const productImages = product.images.map((image) => ({ url: image.url, alt_text: image.alt_text ?? '' }));
  const deletion = useDeleteVariant();
  const settings = useQuery(settingsQuery);
  // The store's default reorder level is offered for new stock; without the settings (a failed read) none is offered.
  const defaultReorderLevel = settings.data?.default_reorder_level ?? null;
  const remove = (v: Variant) =>
    confirmThen({
      title: `Delete variant ${v.sku}?`,
      body: variantDeletionEffect(v),
      confirm: 'Delete variant',
      action: () => deletion.mutateAsync(v.public_id),
      done: `Variant ${v.sku} deleted`,
      failed: 'Not deleted',
    });
  return (
    <>
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h4" mb="sm">
          Variants
        </Title>
        {variants.length === 0 ? (
          <Text c="dimmed" size="sm" mb="sm">
            No variants yet: a product is sold through its variants.
          </Text>
        ) : (
          <TableFrame label="Variants" minWidth={720}>
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
                    <Table.Td ff="monospace">
                      <bdi>{v.sku}</bdi>
                    </Table.Td>
                    <Table.Td>
                      <Group gap="sm" wrap="nowrap" align="flex-start">
                        {v.images[0] ? (
                          <Image
                            src={v.images[0].url}
                            alt={v.images[0].alt_text ?? `Image of ${v.sku}`}
                            w={40}
                            h={40}
                            radius="sm"
                            fit="cover"
                          />
                        ) : null}
                        <div style={{ minWidth: 0 }}>
                          <bdi>{v.name}</bdi>
                          <OptionsText options={v.options} />
                        </div>
                      </Group>
                    </Table.Td>
                    <Table.Td ta="right">
                      {money(v.price)}
                      {v.compare_at_price ? (
                        <Text size="xs" c="dimmed" td="line-through" aria-label={`Compare at ${money(v.compare_at_price)}`}>
                          {money(v.compare_at_price)}
                        </Text>
                      ) : null}
                    </Table.Td>
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
                            openFormModal({
                              title: `Stock of ${v.sku}`,
                              children: <StockRecordForm variant={v} defaultReorderLevel={defaultReorderLevel} />,
                            })
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
                            openFormModal({
                              title: `Edit ${v.sku}`,
                              children: <VariantEditForm variant={v} productImages={productImages} />,
                            })
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
          </TableFrame>
        )}
      </Paper>
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h4" mb="sm">
          Add variants
        </Title>
        {settings.isPending ? (
          <Loader size="sm" aria-label="Loading" />
        ) : (
          <Tabs defaultValue="one" keepMounted={false}>
            <Tabs.List mb="md">
              <Tabs.Tab value="one">One variant</Tabs.Tab>
              <Tabs.Tab value="grid">Every combination of options</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="one">
              <VariantForm productId={productId} defaultReorderLevel={defaultReorderLevel} />
            </Tabs.Panel>
            <Tabs.Panel value="grid">
              <VariantGrid product={product} defaultReorderLevel={defaultReorderLevel} />
            </Tabs.Panel>
          </Tabs>
        )}
      </Paper>
    </>
  );
}
