import type { useAsk } from '../../lib/confirm-question';

/**
 * A price of zero gives the variant away: asked first, since it is more often a slip (a price not yet
 * filled in) than a decision. Resolves true to go on. `ask` is the form's (useAsk): in a form modal
 * the question shows inside it, so going back finds the form as it was.
 */
export function confirmFreeVariants(ask: ReturnType<typeof useAsk>, skus: string[]): Promise<boolean> {
  return ask({
    title: skus.length === 1 ? `Sell ${skus[0]} for nothing?` : `Sell ${skus.length} variants for nothing?`,
    body: `A price of 0.00 lets customers check out ${skus.length === 1 ? 'this variant' : skus.join(', ')} without paying for it.`,
    confirm: 'Yes, the price is 0.00',
    cancel: 'Back to the price',
  });
}
