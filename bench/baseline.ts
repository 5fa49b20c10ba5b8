/**
 * The baseline: a bare Fastify + node-postgres endpoint that runs the single
 * hand-written query a product list needs (20 rows plus the filtered total),
 * written as well as we know how: the page from its index, the total as a
 * scalar count over a narrow index.
 * Same machine, same database, same load; every scenario is a ratio to it.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
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

/**
 * The storage question for uploaded images (bench/NOTES.md): the same bytes
 * read from a file on local disk (what a shared directory costs at best) and
 * from the bytea column the service keeps them in, with nothing else around.
 */
const mediaDir = process.env.BENCH_MEDIA_DIR ?? '';
app.get<{ Params: { name: string } }>('/media-disk/:name', async (request, reply) =>
  reply.type('image/png').send(await readFile(path.join(mediaDir, path.basename(request.params.name)))),
);
app.get<{ Params: { name: string } }>('/media-db/:name', async (request, reply) => {
  const { rows } = await pool.query('SELECT mime_type, content FROM media_files WHERE path = $1', [`/bench/${request.params.name}`]);
  return reply.type(rows[0].mime_type).send(rows[0].content);
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
