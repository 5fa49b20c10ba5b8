import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';

/**
 * A price of zero gives the variant away: asked first, since it is more often a slip (a price not yet
 * filled in) than a decision. Resolves true to go on.
 */
export function confirmFreeVariants(skus: string[]): Promise<boolean> {
  return new Promise((resolve) =>
    modals.openConfirmModal({
      title: skus.length === 1 ? `Sell ${skus[0]} for nothing?` : `Sell ${skus.length} variants for nothing?`,
      children: (
        <Text size="sm">
          A price of 0.00 lets customers check out {skus.length === 1 ? 'this variant' : `${skus.join(', ')}`} without paying for it.
        </Text>
      ),
      labels: { confirm: 'Yes, the price is 0.00', cancel: 'Back to the price' },
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    }),
  );
}
