import { Type, type Static } from 'typebox';
import { BULK_MAX } from '../lib/bulk.js';
import { PageQuery, SortQuery } from '../lib/pagination.js';
import { PublicIdRef, RequiredText, Timestamp } from '../lib/schemas.js';

export const StockStatus = Type.Union([Type.Literal('IN_STOCK'), Type.Literal('LOW_STOCK'), Type.Literal('OUT_OF_STOCK')], {
  description: 'Derived: OUT_OF_STOCK when available <= 0 (wins), else LOW_STOCK when available <= reorder_level, else IN_STOCK',
});
export type StockStatus = Static<typeof StockStatus>;

export const InventoryRecord = Type.Object(
  {
    variant_public_id: Type.String(),
    product_public_id: Type.String(),
    product_name: Type.String(),
    sku: Type.String(),
    quantity_on_hand: Type.Integer(),
    quantity_reserved: Type.Integer(),
    quantity_available: Type.Integer({ description: 'quantity_on_hand - quantity_reserved; can be zero or negative' }),
    reorder_level: Type.Union([Type.Integer(), Type.Null()]),
    stock_status: StockStatus,
    created_at: Timestamp,
    last_stock_update: Timestamp,
  },
  { $id: 'InventoryRecord' },
);
export type InventoryRecord = Static<typeof InventoryRecord>;

export const INVENTORY_SORTS = ['product_name', 'sku', 'quantity_on_hand', 'quantity_available', 'last_stock_update'] as const;
export type InventorySortField = (typeof INVENTORY_SORTS)[number];

export const InventoryListQuery = Type.Object({
  ...PageQuery,
  search: Type.Optional(Type.String({ maxLength: 200, description: 'Case-insensitive substring of product name or SKU' })),
  stock_status: Type.Optional(StockStatus),
  include_deleted: Type.Union([Type.Literal('true'), Type.Literal('false')], { default: 'false' }),
  sort: SortQuery(INVENTORY_SORTS, 'product_name'),
});
export type InventoryListQuery = Static<typeof InventoryListQuery>;

const Reason = Type.String({ maxLength: 255, description: 'Stored with the movement and in the audit log' });
const NonZero = Type.Integer({ not: { const: 0 }, minimum: -1_000_000_000, maximum: 1_000_000_000 });

export const InventoryCreate = Type.Object(
  {
    variant_public_id: PublicIdRef('var'),
    quantity_on_hand: Type.Integer({ minimum: 0, maximum: 1_000_000_000 }),
    reorder_level: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
  },
  { additionalProperties: false },
);
export type InventoryCreate = Static<typeof InventoryCreate>;

export const InventoryAdjust = Type.Object(
  {
    quantity_on_hand: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, description: 'Sets on-hand to this value' })),
    quantity_change: Type.Optional({ ...NonZero, description: 'Non-zero delta applied to on-hand' }),
    reorder_level: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0, maximum: 1_000_000_000 }), Type.Null()], { description: 'null removes the threshold' }),
    ),
    reason: Type.Optional(Reason),
  },
  {
    additionalProperties: false,
    description: 'Exactly one of quantity_on_hand and quantity_change, or neither with reorder_level alone',
  },
);
export type InventoryAdjust = Static<typeof InventoryAdjust>;

export const ReservationChange = Type.Object(
  {
    change: { ...NonZero, description: 'Positive reserves, negative releases' },
    reason: Type.Optional(Reason),
  },
  { additionalProperties: false },
);
export type ReservationChange = Static<typeof ReservationChange>;

export const Movement = Type.Object({
  kind: Type.String({ description: 'CREATE, ADJUST, RESERVE, RELEASE, ORDER_PLACED, ORDER_CANCELLED, ORDER_SHIPPED' }),
  delta_on_hand: Type.Integer(),
  delta_reserved: Type.Integer(),
  quantity_on_hand_after: Type.Integer(),
  quantity_reserved_after: Type.Integer(),
  reason: Type.Union([Type.String(), Type.Null()]),
  actor: Type.Union([Type.Object({ public_id: Type.String(), email: Type.String() }), Type.Null()]),
  order_public_id: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
});
export type Movement = Static<typeof Movement>;

export const BulkAdjust = Type.Object(
  {
    reason: RequiredText(255, { description: 'Why, stored with each movement and audit entry (a count, damage, a return)' }),
    adjustments: Type.Array(
      Type.Object(
        {
          variant_public_id: PublicIdRef('var'),
          quantity_change: { ...NonZero, description: 'Non-zero delta applied to on-hand' },
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: BULK_MAX },
    ),
  },
  {
    additionalProperties: false,
    description: 'Stock changes with one reason, each applied as PATCH /admin/inventory/{var} with quantity_change would',
  },
);
export type BulkAdjust = Static<typeof BulkAdjust>;
