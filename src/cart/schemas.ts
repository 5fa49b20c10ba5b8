import { Type, type Static } from 'typebox';
import { Money, PublicIdRef } from '../lib/schemas.js';

/** The most units one cart line holds (contract section 8). */
export const MAX_LINE_QUANTITY = 999;

const Quantity = Type.Integer({ minimum: 1, maximum: MAX_LINE_QUANTITY });

export const CartItemAdd = Type.Object(
  {
    variant_public_id: PublicIdRef('var'),
    quantity: { ...Quantity, description: 'Added to the line if the variant is already in the cart (the line holds at most 999)' },
  },
  { additionalProperties: false },
);
export type CartItemAdd = Static<typeof CartItemAdd>;

export const CartItemSet = Type.Object({ quantity: Quantity }, { additionalProperties: false });
export type CartItemSet = Static<typeof CartItemSet>;

/** A line as a cart shows it at live prices, and as an order keeps it at checkout prices. */
export const LineItem = Type.Object({
  variant_public_id: Type.String(),
  product_public_id: Type.String(),
  product_name: Type.String(),
  sku: Type.String(),
  options: Type.Record(Type.String(), Type.String()),
  unit_price: Money,
  quantity: Type.Integer(),
  line_total: Money,
});
export type LineItem = Static<typeof LineItem>;

export const CartLine = Type.Object({
  ...LineItem.properties,
  available: Type.Boolean({ description: 'The variant is on sale and enough stock is available for this quantity now' }),
  quantity_available: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
    description:
      'How many can be bought now, given only when the variant is on sale and the line asks for more (so `available` is false); null otherwise. The same count checkout refuses with in INSUFFICIENT_STOCK.',
  }),
});
export type CartLine = Static<typeof CartLine>;

export const Cart = Type.Object(
  {
    items: Type.Array(CartLine),
    subtotal: { ...Money, description: 'Sum of line totals at live prices' },
    currency: Type.String(),
    item_count: Type.Integer({ description: 'Sum of quantities' }),
  },
  { $id: 'Cart' },
);
export type Cart = Static<typeof Cart>;

/** Lines a cart kept elsewhere would hold (a storefront's guest cart, a browser's): asked of the stock now. */
export const AvailabilityQuestion = Type.Object(
  {
    items: Type.Array(Type.Object({ variant_public_id: PublicIdRef('var'), quantity: Quantity }, { additionalProperties: false }), {
      minItems: 1,
      maxItems: 50,
    }),
  },
  { additionalProperties: false },
);
export type AvailabilityQuestion = Static<typeof AvailabilityQuestion>;

export const Availability = Type.Object({
  items: Type.Array(
    Type.Object({
      variant_public_id: Type.String(),
      available: Type.Boolean({ description: 'On sale with enough stock for this quantity now (as a cart line says it)' }),
      quantity_available: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
        description: 'How many can be bought now, given only when the variant is on sale and the quantity asked is more; null otherwise',
      }),
    }),
  ),
});
export type Availability = Static<typeof Availability>;
