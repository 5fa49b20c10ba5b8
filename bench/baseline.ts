/**
 * The baseline: a bare Fastify + node-postgres endpoint that runs the single
 * hand-written query a product list needs (20 rows plus the filtered total),
 * written as well as we know how: the page from its index, the total as a
 * scalar count over a narrow index.
 * Same machine, same database, same load; every scenario is a ratio to it.
 */
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const app = Fastify({ logger: false });

const LIST = `
  SELECT p.public_id, p.name, p.slug, p.brand, p.price_min, p.price_max, p.created_at,
         (SELECT count(*) FROM products c WHERE c.status = 'ACTIVE' AND c.deleted_at IS NULL) AS total
  FROM products p
  WHERE p.status = 'ACTIVE' AND p.deleted_at IS NULL
  ORDER BY p.created_at DESC, p.public_id DESC
  LIMIT 20`;

app.get('/products', async () => {
  const { rows } = await pool.query(LIST);
  return { success: true, data: rows, meta: { total: Number(rows[0]?.total ?? 0) } };
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
