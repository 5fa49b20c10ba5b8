import type { components, paths } from '@commerce/client';

/**
 * The domain's closed sets of values, as the API's generated types declare them. The lists below are
 * checked against those types by the compiler (`valuesOf`): when the API adds or drops a value, the
 * console fails to type-check until its list says the same.
 */
type Schemas = components['schemas'];
type BodyOfInvitation = NonNullable<paths['/api/v1/admin/staff-invitations']['post']['requestBody']>['content']['application/json'];

export type OrderStatus = Schemas['AdminOrder']['status'];
export type Role = Schemas['User']['role'];
export type AccountStatus = Schemas['AdminUserDetail']['status'];
export type ProductStatus = Schemas['AdminProduct']['status'];
export type VariantStatus = Schemas['AdminVariant']['status'];
export type StockStatus = Schemas['InventoryRecord']['stock_status'];
export type ReviewStatus = Schemas['AdminReview']['status'];
export type DiscountType = Schemas['Coupon']['discount_type'];
type AuditQueryParams = NonNullable<paths['/api/v1/admin/audit']['get']['parameters']['query']>;
export type AuditAction = NonNullable<AuditQueryParams['action']>;
export type AuditEntityType = NonNullable<AuditQueryParams['entity_type']>;
export type InvitationState = NonNullable<NonNullable<paths['/api/v1/admin/staff-invitations']['get']['parameters']['query']>['state']>;
export type StaffRole = Exclude<Role, 'CUSTOMER'>;
/** The account list's role filter: a role, or STAFF (ADMIN and SUPER_ADMIN together). */
export type RoleFilter = NonNullable<NonNullable<paths['/api/v1/admin/users']['get']['parameters']['query']>['role']>;
type DeliveriesQueryParams = NonNullable<
  paths['/api/v1/admin/webhooks/endpoints/{endpoint_public_id}/deliveries']['get']['parameters']['query']
>;
export type EndpointStatus = Schemas['WebhookEndpoint']['status'];
export type DeliveryStatus = NonNullable<DeliveriesQueryParams['status']>;
/** Every event type, `webhook.test` included (which no endpoint subscribes to, but its log shows). */
export type WebhookEventType = NonNullable<DeliveriesQueryParams['event_type']>;
export type ExpenseCategory = NonNullable<paths['/api/v1/admin/expenses']['get']['parameters']['query']>['category'] & string;

/** The `sort` values a list operation takes (`field` ascending, `-field` descending). */
export type SortOf<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } }
  ? NonNullable<Q> extends { sort?: infer S }
    ? Exclude<S, undefined>
    : never
  : never;

/**
 * `list` as it is, once the compiler has checked it holds every value of the union `T` and nothing
 * else: `valuesOf<OrderStatus>()(['PLACED', ...])`.
 */
export const valuesOf =
  <T extends string>() =>
  <const L extends readonly T[]>(list: L & ([Exclude<T, L[number]>] extends [never] ? unknown : { missing: Exclude<T, L[number]> })): L =>
    list;

/** `list` as it is, once the compiler has checked each of its values is one of `T` (a subset the console offers). */
export const someOf =
  <T extends string>() =>
  <const L extends readonly T[]>(list: L): L =>
    list;

export const ORDER_STATUSES = valuesOf<OrderStatus>()(['PLACED', 'CONFIRMED', 'SHIPPED', 'FULFILLED', 'CANCELLED']);
export const ROLES = valuesOf<Role>()(['CUSTOMER', 'ADMIN', 'SUPER_ADMIN']);
export const ROLE_FILTERS = valuesOf<RoleFilter>()(['CUSTOMER', 'ADMIN', 'SUPER_ADMIN', 'STAFF']);
export const ACCOUNT_STATUSES = valuesOf<AccountStatus>()(['ACTIVE', 'SUSPENDED']);
export const PRODUCT_STATUSES = valuesOf<ProductStatus>()(['DRAFT', 'ACTIVE', 'ARCHIVED']);
export const VARIANT_STATUSES = valuesOf<VariantStatus>()(['ACTIVE', 'INACTIVE']);
export const STOCK_STATUSES = valuesOf<StockStatus>()(['IN_STOCK', 'LOW_STOCK', 'OUT_OF_STOCK']);
export const REVIEW_STATUSES = valuesOf<ReviewStatus>()(['PENDING', 'APPROVED', 'REJECTED']);
export const DISCOUNT_TYPES = valuesOf<DiscountType>()(['PERCENTAGE', 'FIXED_AMOUNT']);
export const EXPENSE_CATEGORIES = valuesOf<ExpenseCategory>()([
  'RENT',
  'SALARIES',
  'MARKETING',
  'SOFTWARE',
  'SHIPPING',
  'UTILITIES',
  'OTHER',
]);

/** What the audit log records, as its filter offers it: `area.verb`, grouped by area on screen. */
export const AUDIT_ACTIONS = valuesOf<AuditAction>()([
  'auth.register',
  'auth.login',
  'auth.login_failed',
  'auth.login_refused',
  'auth.logout',
  'auth.session_revoke',
  'auth.session_revoke_others',
  'auth.email_verify',
  'auth.password_change',
  'auth.password_check_failed',
  'auth.password_reset_request',
  'auth.password_reset',
  'user.profile_update',
  'user.email_change_request',
  'user.email_change',
  'user.suspend',
  'user.activate',
  'user.role_change',
  'user.admin_create',
  'staff.invite',
  'staff.invitation_revoke',
  'staff.invitation_accept',
  'category.create',
  'category.update',
  'category.delete',
  'category.link_product',
  'category.unlink_product',
  'product.create',
  'product.update',
  'product.duplicate',
  'product.delete',
  'variant.create',
  'variant.update',
  'variant.delete',
  'inventory.create',
  'inventory.adjust',
  'inventory.reserve',
  'inventory.release',
  'order.status_change',
  'coupon.create',
  'coupon.update',
  'coupon.delete',
  'review.moderate',
  'expense.create',
  'expense.update',
  'expense.delete',
  'webhook.create',
  'webhook.update',
  'webhook.delete',
  'webhook.rotate_secret',
  'webhook.test',
  'webhook.redeliver',
  'webhook.redeliver_failed',
  'data.export',
]);
export const AUDIT_ENTITY_TYPES = valuesOf<AuditEntityType>()([
  'order',
  'product',
  'variant',
  'inventory',
  'category',
  'coupon',
  'review',
  'expense',
  'user',
  'session',
  'staff_invitation',
  'webhook_endpoint',
  'export',
]);

export const INVITATION_STATES = valuesOf<InvitationState>()(['PENDING', 'ACCEPTED', 'EXPIRED', 'REVOKED']);
/** The roles an invitation offers: a staff role, never CUSTOMER. */
export const STAFF_ROLES = valuesOf<NonNullable<BodyOfInvitation['role']>>()(['ADMIN', 'SUPER_ADMIN']);

export const ENDPOINT_STATUSES = valuesOf<EndpointStatus>()(['ACTIVE', 'PAUSED']);
export const DELIVERY_STATUSES = valuesOf<DeliveryStatus>()(['PENDING', 'SUCCEEDED', 'FAILED', 'CANCELLED']);
export const WEBHOOK_EVENT_TYPES = valuesOf<WebhookEventType>()([
  'order.placed',
  'order.status_changed',
  'order.cancelled',
  'inventory.low_stock',
  'inventory.out_of_stock',
  'inventory.back_in_stock',
  'product.created',
  'product.updated',
  'product.deleted',
  'review.submitted',
  'review.approved',
  'customer.registered',
  'coupon.exhausted',
  'webhook.test',
]);
