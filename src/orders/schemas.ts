import { Type, type Static } from 'typebox';
import { PageQuery, SortQuery } from '../lib/pagination.js';
import { LongText, Money, PublicIdRef, Timestamp } from '../lib/schemas.js';
import { AddressSnapshot } from '../addresses/schemas.js';
import { MoneyInput } from '../catalog/schemas.js';
import { LineItem } from '../cart/schemas.js';

export const OrderStatus = Type.Union([
  Type.Literal('PLACED'),
  Type.Literal('CONFIRMED'),
  Type.Literal('SHIPPED'),
  Type.Literal('FULFILLED'),
  Type.Literal('CANCELLED'),
]);
export type OrderStatus = Static<typeof OrderStatus>;

export const PlaceOrder = Type.Object(
  {
    address_public_id: PublicIdRef('adr', 'adr_ ID of one of your active addresses'),
    payment_method: Type.Literal('mock', { description: 'The only payment method' }),
    coupon_code: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: 'Case-insensitive' })),
    notes: Type.Optional(LongText(1000)),
    expected_total: Type.Optional({
      ...MoneyInput,
      description:
        'The total the buyer was shown (as GET /cart/quote answered it). The order is placed only if its total is at most this; ' +
        'otherwise 409 TOTAL_CHANGED and nothing changes. Closes the gap between the quote and the order when a price or coupon changes meanwhile.',
      examples: ['59.98'],
    }),
  },
  { additionalProperties: false },
);
export type PlaceOrder = Static<typeof PlaceOrder>;

export const QuoteQuery = Type.Object(
  { coupon_code: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: 'Case-insensitive; refused as checkout would' })) },
  { additionalProperties: false },
);
export type QuoteQuery = Static<typeof QuoteQuery>;

/** An order's money: what checkout computes (src/orders/pricing.ts), quoted before and stored with it. */
const Amounts = {
  subtotal: Money,
  discount_total: Money,
  shipping_total: Money,
  tax_total: Money,
  total: Money,
};

export const OrderQuote = Type.Object(
  {
    ...Amounts,
    currency: Type.String(),
    coupon_code: Type.Union([Type.String(), Type.Null()], { description: 'The coupon applied, as stored (upper case)' }),
    item_count: Type.Integer({ description: 'Sum of quantities' }),
  },
  { $id: 'OrderQuote', description: 'What an order placed from the cart now would cost; nothing is reserved' },
);
export type OrderQuote = Static<typeof OrderQuote>;

/** An order keeps its lines as they were at checkout. */
export const OrderItem = LineItem;

export const Order = Type.Object(
  {
    public_id: Type.String(),
    order_number: Type.String({ examples: ['ORD-000123'] }),
    status: OrderStatus,
    items: Type.Array(OrderItem),
    ...Amounts,
    currency: Type.String(),
    coupon_code: Type.Union([Type.String(), Type.Null()]),
    shipping_address: AddressSnapshot,
    payment: Type.Object({ method: Type.String(), status: Type.String() }),
    notes: Type.Union([Type.String(), Type.Null()]),
    shipment: Type.Union([Type.Object({ carrier: Type.String(), tracking_number: Type.Union([Type.String(), Type.Null()]) }), Type.Null()]),
    status_history: Type.Array(
      Type.Object({
        status: OrderStatus,
        at: Timestamp,
        by: Type.Union([Type.Object({ public_id: Type.String(), role: Type.String() }), Type.Null()]),
        note: Type.Union([Type.String(), Type.Null()]),
      }),
    ),
    placed_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Order' },
);
export type Order = Static<typeof Order>;

export const AdminOrder = Type.Object(
  { ...Order.properties, customer: Type.Object({ public_id: Type.String(), email: Type.String() }) },
  { $id: 'AdminOrder' },
);
export type AdminOrder = Static<typeof AdminOrder>;

/** One order as an admin opens it: with the statuses it can move to now, so a client never keeps its own copy of the lifecycle. */
export const AdminOrderDetail = Type.Object(
  {
    ...AdminOrder.properties,
    allowed_transitions: Type.Array(OrderStatus, {
      description:
        'The statuses PATCH /admin/orders/{ord} accepts for this order now, from the table it enforces; empty once FULFILLED or CANCELLED',
    }),
  },
  { $id: 'AdminOrderDetail' },
);
export type AdminOrderDetail = Static<typeof AdminOrderDetail>;

export const ORDER_SORTS = ['placed_at', 'total'] as const;
export type OrderSortField = (typeof ORDER_SORTS)[number];

export const OrderListQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(OrderStatus),
  sort: SortQuery(ORDER_SORTS, '-placed_at'),
});
export type OrderListQuery = Static<typeof OrderListQuery>;

export const AdminOrderListQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(OrderStatus),
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Order number or customer email (substring)' })),
  customer: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "One customer's orders: their public ID (`usr_...`)" })),
  placed_from: Type.Optional(Type.String({ format: 'date-time', description: 'Inclusive' })),
  placed_to: Type.Optional(Type.String({ format: 'date-time', description: 'Exclusive' })),
  sort: SortQuery(ORDER_SORTS, '-placed_at'),
});
export type AdminOrderListQuery = Static<typeof AdminOrderListQuery>;

export const OrderExportQuery = Type.Object({
  status: Type.Optional(OrderStatus),
  placed_from: Type.Optional(Type.String({ format: 'date-time', description: 'Inclusive' })),
  placed_to: Type.Optional(Type.String({ format: 'date-time', description: 'Exclusive' })),
});

export const OrderStatusChange = Type.Object(
  {
    status: OrderStatus,
    carrier: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Required when shipping' })),
    tracking_number: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    note: Type.Optional(LongText(1000)),
  },
  { additionalProperties: false },
);
export type OrderStatusChange = Static<typeof OrderStatusChange>;
