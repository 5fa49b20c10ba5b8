import { sql } from 'kysely';
import type { Db } from '../src/db/database.js';

/**
 * All interpolated values are trusted constants, inlined as literals so the
 * batch runs as one multi-statement script.
 *
 * A large store in a handful of set-based statements (seconds, not minutes):
 * 200 categories, 10,000 products, 40,000 variants with inventory, 5,000
 * customers with an address, 50,000 historical orders with 100,000 items.
 * Public IDs are 20 hex characters after the prefix (a valid ID shape).
 */
export const BENCH_SIZES = { categories: 200, products: 10_000, variantsPerProduct: 4, customers: 5_000, orders: 50_000 };

const id = (prefix: string, seed: string) => sql.raw(`'${prefix}_' || substr(md5(${seed} || random()::text), 1, 20)`);

export async function seedBenchStore(db: Db, customerPasswordHash: string, sizes: typeof BENCH_SIZES = BENCH_SIZES): Promise<void> {
  const { categories, products, variantsPerProduct, customers, orders } = sizes;
  const words = `ARRAY['Classic','Urban','Trail','Everyday','Summit','Coastal','Heritage','Sprint','Cloud','Nomad','Alpine','Harbor','Metro','Canyon','Aurora']`;
  const nouns = `ARRAY['Jacket','Shirt','Hoodie','Sneaker','Boot','Backpack','Cap','Scarf','Sock','Belt','Watch','Bottle','Tent','Lamp','Mug']`;
  await sql`
    INSERT INTO categories (public_id, name, slug, position)
    SELECT ${id('cat', 'g::text')}, 'Department ' || g, 'department-' || g, g FROM generate_series(1, 20) g;
    INSERT INTO categories (public_id, parent_id, name, slug, position)
    SELECT ${id('cat', 'g::text')}, (SELECT id FROM categories WHERE slug = 'department-' || (1 + g % 20)), 'Aisle ' || g, 'aisle-' || g, g
    FROM generate_series(1, ${sql.lit(categories - 20)}) g;

    INSERT INTO products (public_id, name, slug, description, brand, status, created_at, updated_at)
    SELECT ${id('prd', 'g::text')},
           (${sql.raw(words)})[1 + g % 15] || ' ' || (${sql.raw(nouns)})[1 + (g / 15) % 15] || ' ' || g,
           'product-' || g,
           'A dependable ' || lower((${sql.raw(nouns)})[1 + (g / 15) % 15]) || ' for every day, model ' || g || '.',
           'Brand ' || (g % 40),
           'DRAFT',
           now() - (g || ' minutes')::interval, now()
    FROM generate_series(1, ${sql.lit(products)}) g;

    INSERT INTO product_categories (product_id, category_id)
    SELECT p.id, c.id FROM products p
    JOIN categories c ON c.slug = 'aisle-' || (1 + p.id % ${sql.lit(categories - 20)});

    INSERT INTO variants (public_id, product_id, sku, name, options, price, cost_price, position)
    SELECT ${id('var', "p.id::text || '-' || v::text")}, p.id, 'SKU-' || p.id || '-' || v, 'Size ' || v,
           jsonb_build_object('size', (ARRAY['S','M','L','XL'])[v]),
           round((5 + (p.id * 37 + v * 11) % 495)::numeric + 0.99, 2), round((2 + (p.id * 37 + v * 11) % 200)::numeric, 2), v
    FROM products p, generate_series(1, ${sql.lit(variantsPerProduct)}) v;

    INSERT INTO inventory (variant_id, quantity_on_hand, quantity_reserved, reorder_level, last_stock_update)
    SELECT id, CASE WHEN id % 13 = 0 THEN 0 ELSE 20 + id % 180 END, 0, CASE WHEN id % 3 = 0 THEN 25 END, now() - (id % 5000 || ' minutes')::interval
    FROM variants;

    -- Every twentieth product stays a draft. The rest go on sale only now, with their variants, stock
    -- and categories in place, so each storefront document is built once (drafts have none).
    ANALYZE products, variants, inventory, product_categories, categories;
    UPDATE products SET status = 'ACTIVE' WHERE substr(slug, 9)::int % 20 <> 0;

    INSERT INTO users (public_id, email, password_hash, first_name, last_name, role, email_verified_at, created_at)
    SELECT ${id('usr', 'g::text')}, 'customer' || g || '@bench.test', ${sql.lit(customerPasswordHash)}, 'Customer', 'Number ' || g, 'CUSTOMER', now(), now() - (g || ' hours')::interval
    FROM generate_series(1, ${sql.lit(customers)}) g;

    INSERT INTO addresses (public_id, user_id, recipient_name, phone_number, label, country, state, city, address_1, zip_code, is_default_shipping, is_default_billing)
    SELECT ${id('adr', 'u.id::text')}, u.id, u.first_name || ' ' || u.last_name, '+15550100', 'Home', 'US', 'CA', 'San Francisco', u.id || ' Market St', '94103', true, true
    FROM users u WHERE u.role = 'CUSTOMER';

    INSERT INTO orders (public_id, order_number, user_id, status, subtotal, discount_total, shipping_total, tax_total, total, currency,
                        shipping_address, payment_method, payment_status, placed_at, updated_at)
    SELECT ${id('ord', 'g::text')}, 'ORD-' || lpad(g::text, 6, '0'),
           (SELECT min(id) FROM users) + g % ${sql.lit(customers)},
           (ARRAY['PLACED','CONFIRMED','SHIPPED','FULFILLED','FULFILLED','FULFILLED','CANCELLED'])[1 + g % 7],
           0, 0, 10, 0, 0, 'USD', '{"recipient_name":"Bench Customer","phone_number":"+15550100","label":"Home","country":"US","state":"CA","city":"San Francisco","address_1":"1 Market St","address_2":null,"zip_code":"94103"}', 'mock', 'PAID',
           now() - ((g % 525600) || ' minutes')::interval, now()
    FROM generate_series(1, ${sql.lit(orders)}) g;
    SELECT setval('order_number_seq', ${sql.lit(orders)});

    INSERT INTO order_items (order_id, variant_id, product_id, product_name, sku, options, unit_price, unit_cost, quantity, line_total)
    SELECT o.id, v.id, v.product_id, 'Product', v.sku, v.options, v.price, v.cost_price, 1 + (o.id + k) % 3, v.price * (1 + (o.id + k) % 3)
    FROM orders o
    CROSS JOIN generate_series(0, 1) k
    JOIN variants v ON v.id = (SELECT min(id) FROM variants) + (o.id * 7 + k * 13) % ${sql.lit(products * variantsPerProduct)};

    UPDATE orders o SET subtotal = s.sub, total = s.sub + 10
    FROM (SELECT order_id, sum(line_total) sub FROM order_items GROUP BY order_id) s WHERE s.order_id = o.id;
  `.execute(db);
  await sql`ANALYZE`.execute(db);
}
