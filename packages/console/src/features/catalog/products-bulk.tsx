import { Button, Menu, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconChevronDown, IconTrash } from '@tabler/icons-react';
import { PRODUCT_STATUSES, type ProductStatus } from '../../api/domain';
import { BulkBar } from '../../components/BulkBar';
import { showBulkOutcome } from '../../components/bulk-outcome';
import { count, titleCase } from '../../lib/format';
import { notifyError } from '../../lib/notify';
import { useBulkDeleteProducts, useBulkProductStatus } from './products-api';

const STATUS_EFFECT: Record<ProductStatus, string> = {
  ACTIVE: 'They go on sale in the store (their active variants can be bought).',
  DRAFT: 'They leave the store until made active again.',
  ARCHIVED: 'They leave the store and are kept for the record.',
};

/**
 * What can be done to the products picked on the list: set their status, or delete them. Each asks
 * first; each product is then done or refused on its own, and the summary says which and why.
 */
export function ProductsBulkBar({
  selected,
  name,
  onDone,
}: {
  selected: string[];
  name: (productId: string) => string;
  onDone: () => void;
}) {
  const status = useBulkProductStatus();
  const deletion = useBulkDeleteProducts();
  const many = `${count(selected.length)} ${selected.length === 1 ? 'product' : 'products'}`;

  const setStatus = (to: ProductStatus) =>
    modals.openConfirmModal({
      title: `Make ${many} ${titleCase(to).toLowerCase()}?`,
      children: <Text size="sm">{STATUS_EFFECT[to]}</Text>,
      labels: { confirm: `Make ${titleCase(to).toLowerCase()}`, cancel: 'Back' },
      onConfirm: () =>
        void status.mutateAsync({ product_public_ids: selected, status: to }).then(
          (result) => {
            onDone();
            showBulkOutcome(result, { done: `made ${titleCase(to).toLowerCase()}`, name });
          },
          (error: unknown) => notifyError(error, 'Not changed'),
        ),
    });

  const remove = () =>
    modals.openConfirmModal({
      title: `Delete ${many}?`,
      children: (
        <Text size="sm">
          They leave the store at once with their variants; their stock records leave Inventory. Units reserved by open orders stay
          reserved, and past orders keep their lines. There is no undo.
        </Text>
      ),
      labels: { confirm: `Delete ${many}`, cancel: 'Keep them' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        void deletion.mutateAsync(selected).then(
          (result) => {
            onDone();
            showBulkOutcome(result, { done: 'deleted', name });
          },
          (error: unknown) => notifyError(error, 'Not deleted'),
        ),
    });

  return (
    <BulkBar selected={selected.length} noun={['product', 'products']} onClear={onDone}>
      <Menu position="bottom-start">
        <Menu.Target>
          <Button size="xs" variant="default" rightSection={<IconChevronDown size={14} />} loading={status.isPending}>
            Set status
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {PRODUCT_STATUSES.map((to) => (
            <Menu.Item key={to} onClick={() => setStatus(to)}>
              {titleCase(to)}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      <Button size="xs" color="red" variant="light" leftSection={<IconTrash size={14} />} loading={deletion.isPending} onClick={remove}>
        Delete
      </Button>
    </BulkBar>
  );
}
