import type { AdminUserService } from '../admin-users/service.js';
import type { CatalogAdminService } from '../catalog/admin-service.js';
import type { OrderService } from '../orders/service.js';
import type { SearchResults } from './schemas.js';

/** How many of each kind one search shows: enough to pick from, few enough to read at a glance. */
const EACH = 5;

/**
 * The console's one search box: orders (number or customer email), products (name, brand, description
 * or SKU) and accounts (name or email), each through its owner's own list so the rules and indexes
 * stay in one place. `exact` names the one thing the text identifies outright (an order number, a
 * SKU, an email, a product's whole name when one product found has it), so the console can go
 * straight to it.
 */
export function createAdminSearch(deps: {
  orders: Pick<OrderService, 'adminList'>;
  catalog: Pick<CatalogAdminService, 'list'>;
  adminUsers: Pick<AdminUserService, 'list'>;
}) {
  return {
    async search(text: string): Promise<SearchResults> {
      const q = text.trim();
      const page = { page: 1, limit: EACH };
      const [orders, products, users] = await Promise.all([
        deps.orders.adminList({ ...page, search: q, sort: '-placed_at' }),
        deps.catalog.list({ ...page, search: q, sort: '-created_at', include_deleted: 'false' }),
        deps.adminUsers.list({ ...page, search: q, sort: '-created_at' }),
      ]);
      const lower = q.toLowerCase();
      const order = orders.data.find((o) => o.order_number.toLowerCase() === lower);
      const product = products.data.find((p) => p.variants.some((v) => v.sku.toLowerCase() === lower));
      const variant = product?.variants.find((v) => v.sku.toLowerCase() === lower);
      const user = users.data.find((u) => u.email.toLowerCase() === lower);
      const named = products.data.filter((p) => p.name.toLowerCase() === lower);
      const exact = order
        ? { kind: 'order' as const, public_id: order.public_id }
        : variant && product
          ? { kind: 'variant' as const, public_id: variant.public_id, product_public_id: product.public_id }
          : user
            ? { kind: 'user' as const, public_id: user.public_id }
            : named.length === 1
              ? { kind: 'product' as const, public_id: named[0]!.public_id }
              : null;
      return {
        exact,
        orders: { data: orders.data, total: orders.meta.total },
        products: { data: products.data, total: products.meta.total },
        users: { data: users.data, total: users.meta.total },
      };
    },
  };
}

export type AdminSearch = ReturnType<typeof createAdminSearch>;
