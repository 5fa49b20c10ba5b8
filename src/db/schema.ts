import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { Role } from '../lib/context.js';

/** Table shapes as Kysely sees them. Keep in step with src/db/migrations. */

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export type { Role };
export type UserStatus = 'ACTIVE' | 'SUSPENDED';

export interface UsersTable {
  id: Generated<number>;
  public_id: string;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  phone_number: string | null;
  role: ColumnType<Role, Role | undefined, Role>;
  status: ColumnType<UserStatus, UserStatus | undefined, UserStatus>;
  email_verified_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface SessionsTable {
  id: Generated<number>;
  public_id: string;
  user_id: number;
  token_hash: Buffer;
  created_at: CreatedAt;
  last_seen_at: UpdatedAt;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  user_agent: string | null;
  ip: string | null;
}

export interface RateLimitsTable {
  name: string;
  key: string;
  window_started_at: Timestamp;
  hits: number;
}

export interface AddressesTable {
  id: Generated<number>;
  public_id: string;
  user_id: number;
  recipient_name: string;
  phone_number: string;
  label: string | null;
  country: string;
  state: string;
  city: string;
  address_1: string;
  address_2: string | null;
  zip_code: string | null;
  is_default_shipping: ColumnType<boolean, boolean | undefined, boolean>;
  is_default_billing: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Timestamp | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  public_id: string;
  actor_user_id: number | null;
  actor_public_id: string | null;
  actor_email: string | null;
  actor_role: string | null;
  action: string;
  entity_type: string;
  entity_public_id: string | null;
  changes: ColumnType<Record<string, unknown> | null, string | null, never>;
  reason: string | null;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  created_at: CreatedAt;
}

export interface CategoriesTable {
  id: Generated<number>;
  public_id: string;
  parent_id: number | null;
  name: string;
  slug: string;
  description: string | null;
  position: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Timestamp | null;
}

export type ProductStatus = 'DRAFT' | 'ACTIVE' | 'ARCHIVED';
export type VariantStatus = 'ACTIVE' | 'INACTIVE';
export interface ImageJson {
  url: string;
  alt_text: string | null;
  position: number;
}
/** jsonb columns: read as parsed values, written as JSON text. */
type Json<T> = ColumnType<T, string | undefined, string>;

export interface ProductsTable {
  id: Generated<number>;
  public_id: string;
  name: string;
  slug: string;
  description: ColumnType<string, string | undefined, string>;
  brand: string | null;
  status: ColumnType<ProductStatus, ProductStatus | undefined, ProductStatus>;
  images: Json<ImageJson[]>;
  price_min: string | null;
  price_max: string | null;
  rating_average: ColumnType<string, string | undefined, string>;
  rating_count: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Timestamp | null;
}

export interface ProductCategoriesTable {
  product_id: number;
  category_id: number;
}

export interface VariantsTable {
  id: Generated<number>;
  public_id: string;
  product_id: number;
  sku: string;
  name: string;
  options: Json<Record<string, string>>;
  price: string;
  compare_at_price: string | null;
  cost_price: string | null;
  status: ColumnType<VariantStatus, VariantStatus | undefined, VariantStatus>;
  images: Json<ImageJson[]>;
  position: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Timestamp | null;
}

export interface InventoryTable {
  id: Generated<number>;
  variant_id: number;
  quantity_on_hand: number;
  quantity_reserved: ColumnType<number, number | undefined, number>;
  reorder_level: number | null;
  created_at: CreatedAt;
  last_stock_update: UpdatedAt;
  /** Copies of the list's sort and search keys, derived by the database (src/db/DERIVED.md); never written by the app. */
  variant_public_id: ColumnType<string, never, never>;
  product_public_id: ColumnType<string, never, never>;
  product_name: ColumnType<string, never, never>;
  sku: ColumnType<string, never, never>;
  variant_deleted: ColumnType<boolean, never, never>;
}

export type MovementKind = 'CREATE' | 'ADJUST' | 'RESERVE' | 'RELEASE' | 'ORDER_PLACED' | 'ORDER_CANCELLED' | 'ORDER_SHIPPED';

export interface InventoryMovementsTable {
  id: Generated<number>;
  inventory_id: number;
  kind: MovementKind;
  delta_on_hand: number;
  delta_reserved: number;
  on_hand_after: number;
  reserved_after: number;
  reason: string | null;
  actor_user_id: number | null;
  order_id: number | null;
  created_at: CreatedAt;
}

export interface IdempotencyKeysTable {
  user_id: number;
  key: string;
  fingerprint: string;
  status_code: number;
  response: Json<unknown>;
  created_at: CreatedAt;
}

export interface CartItemsTable {
  user_id: number;
  variant_id: number;
  quantity: number;
  added_at: CreatedAt;
  updated_at: UpdatedAt;
}

export type DiscountType = 'PERCENTAGE' | 'FIXED_AMOUNT';

export interface CouponsTable {
  id: Generated<number>;
  public_id: string;
  code: string;
  discount_type: DiscountType;
  discount_value: string;
  minimum_order_amount: string | null;
  maximum_discount_amount: string | null;
  usage_limit: number | null;
  usage_limit_per_user: number | null;
  times_used: ColumnType<number, number | undefined, number>;
  starts_at: Timestamp | null;
  expires_at: Timestamp | null;
  is_active: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Timestamp | null;
}

export type OrderStatus = 'PLACED' | 'CONFIRMED' | 'SHIPPED' | 'FULFILLED' | 'CANCELLED';

export interface OrdersTable {
  id: Generated<number>;
  public_id: string;
  order_number: string;
  user_id: number;
  status: OrderStatus;
  subtotal: string;
  discount_total: string;
  shipping_total: string;
  tax_total: string;
  total: string;
  currency: string;
  coupon_id: number | null;
  coupon_code: string | null;
  shipping_address: Json<Record<string, unknown>>;
  payment_method: string;
  payment_status: string;
  notes: string | null;
  carrier: string | null;
  tracking_number: string | null;
  placed_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface OrderItemsTable {
  id: Generated<number>;
  order_id: number;
  variant_id: number;
  product_id: number;
  product_name: string;
  sku: string;
  options: Json<Record<string, string>>;
  unit_price: string;
  unit_cost: string | null;
  quantity: number;
  line_total: string;
}

export interface OrderStatusHistoryTable {
  id: Generated<number>;
  order_id: number;
  status: OrderStatus;
  actor_user_id: number | null;
  note: string | null;
  created_at: CreatedAt;
}

export interface CouponUsagesTable {
  id: Generated<number>;
  coupon_id: number;
  user_id: number;
  order_id: number;
  discount_amount: string;
  created_at: CreatedAt;
  released_at: Timestamp | null;
}

export interface OutboxTable {
  id: Generated<number>;
  kind: string;
  recipient: string;
  payload: Json<Record<string, unknown>>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  last_error: string | null;
  delivered_at: Timestamp | null;
  /** The worker claim holding the message while it is being sent (its lease ends at next_attempt_at). */
  claim: string | null;
  created_at: CreatedAt;
}

export type TokenPurpose = 'VERIFY_EMAIL' | 'PASSWORD_RESET' | 'EMAIL_CHANGE';

export interface AccountTokensTable {
  id: Generated<number>;
  user_id: number;
  purpose: TokenPurpose;
  token_hash: Buffer;
  new_email: string | null;
  session_id: number | null;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface UploadTokensTable {
  token: string;
  user_id: number;
  folder: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

/** An image stored by the built-in image host (migration 0013). */
export interface MediaFilesTable {
  id: Generated<number>;
  /** Under the URL endpoint, folder first: `/ecommerce/reviews/<id>.png`. */
  path: string;
  /** The URL handed to the uploader; reviews and products store exactly this string. */
  url: string;
  folder: string;
  user_id: number;
  mime_type: string;
  size: number;
  content: Buffer;
  created_at: CreatedAt;
  /** When the pruner last found something pointing at it. */
  checked_at: Timestamp | null;
}

/** Where the built-in image host serves files, as the instances last started say (migration 0027). */
export interface MediaEndpointTable {
  singleton: ColumnType<boolean, boolean | undefined, boolean>;
  url: string;
  updated_at: UpdatedAt;
}

export interface ServiceSecretsTable {
  name: string;
  value: string;
  created_at: CreatedAt;
}

export type ReviewStatus = 'PENDING' | 'APPROVED' | 'REJECTED';

export interface ReviewsTable {
  id: Generated<number>;
  public_id: string;
  product_id: number;
  user_id: number;
  rating: number;
  title: string;
  comment: string;
  images: Json<{ image_url: string; alt_text: string | null }[]>;
  status: ColumnType<ReviewStatus, ReviewStatus | undefined, ReviewStatus>;
  moderation_note: string | null;
  moderated_by: number | null;
  moderated_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Timestamp | null;
}

export type ExpenseCategory = 'RENT' | 'SALARIES' | 'MARKETING' | 'SOFTWARE' | 'SHIPPING' | 'UTILITIES' | 'OTHER';

export interface ExpensesTable {
  id: Generated<number>;
  public_id: string;
  description: string;
  category: ExpenseCategory;
  amount: string;
  /** A calendar date (YYYY-MM-DD), read as text. */
  spent_at: string;
  created_by: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Timestamp | null;
}

/** Derived stores (src/db/DERIVED.md): written only by the triggers of migration 0015, read by the services. */

/** One row: how many products the storefront shows. */
export interface StorefrontTotalsTable {
  singleton: Generated<boolean>;
  products: number;
}

/** One row: how many inventory records are live (variant not deleted). */
export interface InventoryTotalsTable {
  singleton: Generated<boolean>;
  live_records: number;
}

/** Each product's storefront `Product` document, as JSON text (json, so it is sent as stored); null while the product is not public. */
export interface ProductDocumentsTable {
  product_id: number;
  document: object | null;
}

/** Each product's name and number of live inventory records, for the admin inventory search. */
export interface InventoryProductsTable {
  product_id: number;
  name: string;
  live_records: number;
}

export type TargetKind = 'webhook' | 'cache';
export type TargetStatus = 'ACTIVE' | 'PAUSED';
export type PausedReason = 'MANUAL' | 'FAILING';
export type DeliveryState = 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';

/** A consumer of the event stream (src/events/): a webhook endpoint today. */
export interface EventTargetsTable {
  id: Generated<number>;
  public_id: string;
  kind: TargetKind;
  event_types: ColumnType<string[], string[], string[]>;
  status: ColumnType<TargetStatus, TargetStatus | undefined, TargetStatus>;
  paused_reason: PausedReason | null;
  paused_at: Timestamp | null;
  failing_since: Timestamp | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Timestamp | null;
}

/** A webhook target's address and signing secrets (src/webhooks/). */
export interface WebhookEndpointsTable {
  target_id: number;
  url: string;
  description: ColumnType<string, string | undefined, string>;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Timestamp | null;
}

/** A cache target's purge address (src/http-cache/): one per CACHE_PURGE_URLS entry. */
export interface CacheTargetsTable {
  target_id: number;
  url: string;
}

/** One row: the public catalog's version, bumped at the commit of every change a shopper can see (migration 0018). */
export interface CatalogVersionTable {
  singleton: ColumnType<boolean, boolean | undefined, boolean>;
  version: number;
  bumped_by: string | null;
}

export interface EventsTable {
  id: Generated<number>;
  public_id: Generated<string>;
  type: string;
  version: number;
  ordering_key: string;
  payload: Json<Record<string, unknown>>;
  target_id: number | null;
  created_at: CreatedAt;
}

/** An event not yet placed in the stream (written by the events' own statement, migration 0024). */
export interface EventInboxTable {
  event_id: number;
  type: string;
}

/** Every event, at its place in the stream that the targets' cursors read. */
export interface EventStreamTable {
  position: number;
  event_id: number;
  type: string;
}

/** A target's place in the stream, and the lease of the dispatcher reading it. */
export interface EventCursorsTable {
  target_id: number;
  position: number;
  claim: string | null;
  lease_until: Timestamp | null;
}

/** One event's delivery to one target, written after its first attempt: the log, and the retries of what failed. */
export interface EventDeliveriesTable {
  id: Generated<number>;
  public_id: Generated<string>;
  event_id: number;
  target_id: number;
  ordering_key: string;
  state: ColumnType<DeliveryState, DeliveryState | undefined, DeliveryState>;
  attempts: ColumnType<number, number | undefined, number>;
  /** The attempts made before the latest redelivery: the backoff counts only this round's (migration 0028). */
  attempts_before_round: ColumnType<number, number | undefined, number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  claim: string | null;
  first_attempt_at: Timestamp | null;
  last_attempt_at: Timestamp | null;
  response_status: number | null;
  response_body: string | null;
  latency_ms: number | null;
  last_error: string | null;
  delivered_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface StaffInvitationsTable {
  id: Generated<number>;
  public_id: string;
  email: string;
  role: 'ADMIN' | 'SUPER_ADMIN';
  token_hash: Buffer;
  invited_by_user_id: number;
  created_at: CreatedAt;
  expires_at: Timestamp;
  accepted_at: Timestamp | null;
  accepted_user_id: number | null;
  revoked_at: Timestamp | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  rate_limits: RateLimitsTable;
  addresses: AddressesTable;
  audit_log: AuditLogTable;
  categories: CategoriesTable;
  products: ProductsTable;
  storefront_totals: StorefrontTotalsTable;
  product_categories: ProductCategoriesTable;
  variants: VariantsTable;
  inventory: InventoryTable;
  inventory_totals: InventoryTotalsTable;
  product_documents: ProductDocumentsTable;
  inventory_products: InventoryProductsTable;
  inventory_movements: InventoryMovementsTable;
  idempotency_keys: IdempotencyKeysTable;
  cart_items: CartItemsTable;
  coupons: CouponsTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  order_status_history: OrderStatusHistoryTable;
  coupon_usages: CouponUsagesTable;
  outbox: OutboxTable;
  account_tokens: AccountTokensTable;
  upload_tokens: UploadTokensTable;
  media_files: MediaFilesTable;
  service_secrets: ServiceSecretsTable;
  media_endpoint: MediaEndpointTable;
  reviews: ReviewsTable;
  expenses: ExpensesTable;
  event_targets: EventTargetsTable;
  webhook_endpoints: WebhookEndpointsTable;
  cache_targets: CacheTargetsTable;
  catalog_version: CatalogVersionTable;
  events: EventsTable;
  event_deliveries: EventDeliveriesTable;
  event_inbox: EventInboxTable;
  event_stream: EventStreamTable;
  event_cursors: EventCursorsTable;
  staff_invitations: StaffInvitationsTable;
}

export type CouponRow = Selectable<CouponsTable>;
export type OrderRow = Selectable<OrdersTable>;

export type CategoryRow = Selectable<CategoriesTable>;
export type ProductRow = Selectable<ProductsTable>;
export type VariantRow = Selectable<VariantsTable>;
export type InventoryRow = Selectable<InventoryTable>;

export type UserRow = Selectable<UsersTable>;
export type AddressRow = Selectable<AddressesTable>;
export type NewAddress = Insertable<AddressesTable>;
