/**
 * The query key of everything the console reads: one factory per resource (TanStack Query's key
 * factories). A key starts with its resource, so the resource's `all` is a prefix of every read of
 * it, lists and single records alike: a write invalidates `orderKeys.all` and every screen showing an
 * order fetches again when it is next shown (at once if it is on screen). Reads and writes take
 * their keys from here only, so a write can name what it changes.
 */

/** The signed-in account, and the sessions of that account. */
export const sessionKeys = {
  me: ['session'] as const,
  list: ['sessions'] as const,
};

export const orderKeys = {
  all: ['orders'] as const,
  list: (query: object) => [...orderKeys.all, 'list', query] as const,
  detail: (orderId: string) => [...orderKeys.all, 'detail', orderId] as const,
};

/** Stock records, their movements and the inventory list: what orders, adjustments and the catalog change. */
export const inventoryKeys = {
  all: ['inventory'] as const,
  list: (query: object) => [...inventoryKeys.all, 'list', query] as const,
  record: (variantId: string) => [...inventoryKeys.all, 'record', variantId] as const,
  movements: (variantId: string, query: object) => [...inventoryKeys.all, 'movements', variantId, query] as const,
};

/** Products with their variants (and each variant's stock figures). */
export const productKeys = {
  all: ['products'] as const,
  list: (query: object) => [...productKeys.all, 'list', query] as const,
  detail: (productId: string) => [...productKeys.all, 'detail', productId] as const,
};

export const categoryKeys = {
  all: ['categories'] as const,
  /** Every category, every page of them: the tree and the product editor's picker. */
  everyOne: () => [...categoryKeys.all, 'every'] as const,
};

export const couponKeys = {
  all: ['coupons'] as const,
  list: (query: object) => [...couponKeys.all, 'list', query] as const,
  detail: (couponId: string) => [...couponKeys.all, 'detail', couponId] as const,
  usages: (couponId: string, query: object) => [...couponKeys.all, 'usages', couponId, query] as const,
};

/** Accounts as staff see them (customers and staff). */
export const accountKeys = {
  all: ['accounts'] as const,
  list: (query: object) => [...accountKeys.all, 'list', query] as const,
  detail: (userId: string) => [...accountKeys.all, 'detail', userId] as const,
};

export const reviewKeys = {
  all: ['reviews'] as const,
  list: (query: object) => [...reviewKeys.all, 'list', query] as const,
};

export const expenseKeys = {
  all: ['expenses'] as const,
  list: (query: object) => [...expenseKeys.all, 'list', query] as const,
};

/** The dashboard's figures: orders, revenue, stock levels, reviews waiting. */
export const statsKeys = {
  all: ['stats'] as const,
  period: (period: string) => [...statsKeys.all, period] as const,
};

/** The money screen's reports: the P&L and coupon performance. */
export const reportKeys = {
  all: ['reports'] as const,
  pnl: (range: object) => [...reportKeys.all, 'pnl', range] as const,
  coupons: (query: object) => [...reportKeys.all, 'coupons', query] as const,
};

/** The audit log: every write adds to it, so useWrite refreshes it after each (EVERY_WRITE_CHANGES). */
export const auditKeys = {
  all: ['audit'] as const,
  list: (query: object) => [...auditKeys.all, 'list', query] as const,
};

/** The store's settings (currency, shipping, tax, the default reorder level): they change with a deploy only. */
export const settingsKeys = {
  all: ['settings'] as const,
};

/** Invitations to join the staff. */
export const invitationKeys = {
  all: ['invitations'] as const,
  list: (query: object) => [...invitationKeys.all, 'list', query] as const,
};

/** Who an invitation link is for, on the link's page: apart from invitationKeys, as nothing staff do there changes it. */
export const invitationPreviewKeys = {
  all: ['invitation-preview'] as const,
  token: (token: string) => [...invitationPreviewKeys.all, token] as const,
};

/** The header's search across orders, products and accounts: what one text finds; refreshed after every write, as the audit log is. */
export const searchKeys = {
  all: ['search'] as const,
  text: (q: string) => [...searchKeys.all, q] as const,
};

/** Webhook endpoints, the event catalog they subscribe to, and each endpoint's delivery log. */
export const webhookKeys = {
  all: ['webhooks'] as const,
  eventTypes: () => [...webhookKeys.all, 'event-types'] as const,
  list: (query: object) => [...webhookKeys.all, 'list', query] as const,
  detail: (endpointId: string) => [...webhookKeys.all, 'detail', endpointId] as const,
  deliveries: (endpointId: string, query: object) => [...webhookKeys.all, 'deliveries', endpointId, query] as const,
};
