import { Type, type Static, type TSchema } from 'typebox';
import { Money, StringEnum, Timestamp } from '../lib/schemas.js';

/**
 * The catalog of events: every type the service publishes, its payload
 * version and the payload's schema. These payloads are a contract of their
 * own, apart from the API's response shapes, so an API change never changes
 * an event by accident: a field may be added to a version (receivers ignore
 * what they do not know), anything else is a new version. Every event goes
 * out in one envelope (`EventEnvelope` below); the OpenAPI document lists the
 * types under `webhooks` (src/openapi/) and the typed client exports them.
 */

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const oneOf = <const T extends string>(...values: T[]) => StringEnum(values);

const OrderLine = Type.Object({
  variant_public_id: Type.String(),
  product_public_id: Type.String(),
  product_name: Type.String(),
  sku: Type.String(),
  options: Type.Record(Type.String(), Type.String()),
  unit_price: Money,
  quantity: Type.Integer({ minimum: 1 }),
  line_total: Money,
});

const ShippingAddress = Type.Object({
  recipient_name: Type.String(),
  phone_number: Type.String(),
  label: Nullable(Type.String()),
  country: Type.String(),
  state: Type.String(),
  city: Type.String(),
  address_1: Type.String(),
  address_2: Nullable(Type.String()),
  zip_code: Nullable(Type.String()),
});

const OrderStatus = oneOf('PLACED', 'CONFIRMED', 'SHIPPED', 'FULFILLED', 'CANCELLED');

/** An order as events carry it: its lines, totals and shipping address, so a warehouse needs no call back. */
export const EventOrder = Type.Object(
  {
    public_id: Type.String({ description: '`ord_...`' }),
    order_number: Type.String({ examples: ['ORD-000123'] }),
    status: OrderStatus,
    customer: Type.Object({ public_id: Type.String(), email: Type.String() }),
    items: Type.Array(OrderLine),
    subtotal: Money,
    discount_total: Money,
    shipping_total: Money,
    tax_total: Money,
    total: Money,
    currency: Type.String(),
    coupon_code: Nullable(Type.String()),
    shipping_address: ShippingAddress,
    payment: Type.Object({ method: Type.String(), status: Type.String() }),
    notes: Nullable(Type.String()),
    shipment: Nullable(Type.Object({ carrier: Type.String(), tracking_number: Nullable(Type.String()) })),
    placed_at: Timestamp,
  },
  { description: 'The order after the change' },
);
export type EventOrder = Static<typeof EventOrder>;

const Actor = Nullable(Type.Object({ public_id: Type.String(), role: Type.String() }, { description: 'Who made the change' }));

const StockStatus = oneOf('IN_STOCK', 'LOW_STOCK', 'OUT_OF_STOCK');

/** Built by the database (migration 0017, events_from_inventory()): keep both in step. */
const StockChange = Type.Object({
  variant_public_id: Type.String(),
  product_public_id: Type.String(),
  product_name: Type.String(),
  sku: Type.String(),
  quantity_on_hand: Type.Integer(),
  quantity_reserved: Type.Integer(),
  quantity_available: Type.Integer({ description: 'on hand minus reserved; may be negative' }),
  reorder_level: Nullable(Type.Integer()),
  stock_status: StockStatus,
  previous_stock_status: StockStatus,
});

const Image = Type.Object({ url: Type.String(), alt_text: Nullable(Type.String()), position: Type.Integer() });

export const EventProduct = Type.Object(
  {
    public_id: Type.String({ description: '`prd_...`' }),
    name: Type.String(),
    slug: Type.String(),
    description: Type.String(),
    brand: Nullable(Type.String()),
    status: oneOf('DRAFT', 'ACTIVE', 'ARCHIVED'),
    categories: Type.Array(Type.Object({ public_id: Type.String(), name: Type.String(), slug: Type.String() })),
    images: Type.Array(Image),
    price_min: Nullable(Money),
    price_max: Nullable(Money),
    variants: Type.Array(
      Type.Object({
        public_id: Type.String({ description: '`var_...`' }),
        sku: Type.String(),
        name: Type.String(),
        options: Type.Record(Type.String(), Type.String()),
        price: Money,
        compare_at_price: Nullable(Money),
        status: oneOf('ACTIVE', 'INACTIVE'),
        position: Type.Integer(),
        images: Type.Array(Image),
      }),
      { description: 'Live variants (deleted ones are left out)' },
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: 'The product after the change; cost prices and stock counts are left out' },
);
export type EventProduct = Static<typeof EventProduct>;

export const EventReview = Type.Object({
  public_id: Type.String({ description: '`rev_...`' }),
  product_public_id: Type.String(),
  author: Type.Object({ public_id: Type.String(), first_name: Type.String(), last_initial: Type.String() }),
  rating: Type.Integer({ minimum: 1, maximum: 5 }),
  title: Type.String(),
  comment: Type.String(),
  images: Type.Array(Type.Object({ image_url: Type.String(), alt_text: Nullable(Type.String()) })),
  status: oneOf('PENDING', 'APPROVED', 'REJECTED'),
  verified_purchase: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type EventReview = Static<typeof EventReview>;

interface CatalogEntry {
  version: number;
  summary: string;
  /** What the ordering key is: deliveries with the same key reach an endpoint in the order they happened. */
  orderedBy: string;
  data: TSchema;
}

const entry = <S extends TSchema>(summary: string, orderedBy: string, data: S) => ({ version: 1, summary, orderedBy, data });

export const EVENT_CATALOG = {
  'order.placed': entry('A customer placed an order (stock is reserved, payment taken).', 'the order', Type.Object({ order: EventOrder })),
  'order.status_changed': entry(
    'An order moved from one status to another: confirmed, shipped (with its shipment), fulfilled or cancelled.',
    'the order',
    Type.Object({ order: EventOrder, from: OrderStatus, to: OrderStatus, note: Nullable(Type.String()), changed_by: Actor }),
  ),
  'order.cancelled': entry(
    'An order was cancelled by its customer or an admin: its reservation and coupon use are given back, payment refunded. Sent after its order.status_changed.',
    'the order',
    Type.Object({ order: EventOrder, from: OrderStatus, cancelled_by: Actor }),
  ),
  'inventory.low_stock': entry(
    "A variant's available stock fell to its reorder level or below (IN_STOCK to LOW_STOCK).",
    'the variant',
    StockChange,
  ),
  'inventory.out_of_stock': entry('A variant has no units available any more (to OUT_OF_STOCK).', 'the variant', StockChange),
  'inventory.back_in_stock': entry(
    'A variant that was out of stock has units available again (from OUT_OF_STOCK; `stock_status` says whether it is low).',
    'the variant',
    StockChange,
  ),
  'product.created': entry(
    'An admin created a product: one at a time, as a duplicate, or by a CSV import.',
    'the product',
    Type.Object({ product: EventProduct }),
  ),
  'product.updated': entry(
    'A product changed: its own fields, its categories (including a category it is in being renamed or deleted), or one of its variants (added, edited, deleted).',
    'the product',
    Type.Object({ product: EventProduct }),
  ),
  'product.deleted': entry(
    'An admin deleted a product (and its variants); it is gone from the storefront.',
    'the product',
    Type.Object({ product: Type.Object({ public_id: Type.String(), name: Type.String(), slug: Type.String() }), deleted_at: Timestamp }),
  ),
  'review.submitted': entry(
    'A customer wrote a review, or edited one (`resubmitted`), and it waits for moderation.',
    'the review',
    Type.Object({ review: EventReview, resubmitted: Type.Boolean() }),
  ),
  'review.approved': entry(
    'A moderator approved a review; it is public and counts in the rating.',
    'the review',
    Type.Object({ review: EventReview }),
  ),
  'customer.registered': entry(
    'Someone created a customer account.',
    'the customer',
    Type.Object({
      customer: Type.Object({
        public_id: Type.String({ description: '`usr_...`' }),
        email: Type.String(),
        first_name: Type.String(),
        last_name: Type.String(),
        phone_number: Nullable(Type.String()),
        created_at: Timestamp,
      }),
    }),
  ),
  'coupon.exhausted': entry(
    'A checkout used the last use of a coupon with a usage limit.',
    'the coupon',
    Type.Object({
      coupon: Type.Object({
        public_id: Type.String({ description: '`cpn_...`' }),
        code: Type.String(),
        usage_limit: Type.Integer(),
        times_used: Type.Integer(),
      }),
      order_public_id: Type.String({ description: 'The order that used it up' }),
    }),
  ),
  'webhook.test': entry(
    'Sent by "send test event" to one endpoint only; never subscribed to.',
    'the test itself',
    Type.Object({ endpoint_public_id: Type.String(), message: Type.String() }),
  ),
} as const satisfies Record<string, CatalogEntry>;

export type EventType = keyof typeof EVENT_CATALOG;
export type EventData<T extends EventType> = Static<(typeof EVENT_CATALOG)[T]['data']>;

/** The types an endpoint may subscribe to (the test event goes only where it is sent). */
export const SUBSCRIBABLE_TYPES = (Object.keys(EVENT_CATALOG) as EventType[]).filter(
  (type): type is Exclude<EventType, 'webhook.test'> => type !== 'webhook.test',
);

/** What a receiver gets for every event (the HTTP body of a webhook), following the Standard Webhooks payload shape. */
export const EventEnvelope = <T extends TSchema>(type: string, version: number, data: T) =>
  Type.Object({
    id: Type.String({ description: 'The event ID (`evt_...`), also sent as `webhook-id`: the same on every retry, so deduplicate on it' }),
    type: Type.Literal(type),
    version: Type.Literal(version, { description: "The payload's version" }),
    timestamp: { ...Timestamp, description: 'When it happened (ISO 8601 UTC)' },
    data,
  });
