import { sql } from 'kysely';
import type { Executor } from '../db/database.js';

/** Upload tokens: issued by GET /uploads/media-auth, bound to a folder, used once. */

export async function insertUploadToken(
  db: Executor,
  token: { token: string; userId: number; folder: string; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('upload_tokens')
    .values({ token: token.token, user_id: token.userId, folder: token.folder, expires_at: token.expiresAt })
    .execute();
}

/**
 * Marks the token used if it is ours, for this folder, unexpired and unused,
 * in one conditional UPDATE, so two uploads racing with one token cannot both win.
 * Returns the account the token was issued to, or null.
 */
export async function consumeUploadToken(db: Executor, token: string, folder: string, now: Date): Promise<number | null> {
  const row = await db
    .updateTable('upload_tokens')
    .set({ used_at: now })
    .where('token', '=', token)
    .where('folder', '=', folder)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** Read only after a failed consume, to say why it failed. */
export function findUploadToken(db: Executor, token: string) {
  return db.selectFrom('upload_tokens').select(['folder', 'expires_at', 'used_at']).where('token', '=', token).executeTakeFirst();
}

/** Expired tokens are kept a while (so a late upload is told "expired", not "unknown"), then deleted in batches. */
export async function deleteExpiredUploadTokens(db: Executor, expiredBefore: Date, batchSize: number): Promise<number> {
  const result = await db
    .deleteFrom('upload_tokens')
    .where('token', 'in', (eb) => eb.selectFrom('upload_tokens').select('token').where('expires_at', '<', expiredBefore).limit(batchSize))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** A secret generated once and shared by every instance: the first writer wins, everyone reads the winner. */
export async function readOrCreateSecret(db: Executor, name: string, candidate: string): Promise<string> {
  await db
    .insertInto('service_secrets')
    .values({ name, value: candidate })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('service_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}

export interface NewMediaFile {
  path: string;
  url: string;
  folder: string;
  userId: number;
  mimeType: string;
  content: Buffer;
}

export async function insertMediaFile(db: Executor, file: NewMediaFile): Promise<void> {
  await db
    .insertInto('media_files')
    .values({
      path: file.path,
      url: file.url,
      folder: file.folder,
      user_id: file.userId,
      mime_type: file.mimeType,
      size: file.content.length,
      content: file.content,
    })
    .execute();
}

export function findMediaFile(db: Executor, path: string) {
  return db.selectFrom('media_files').select(['mime_type', 'size', 'content', 'created_at']).where('path', '=', path).executeTakeFirst();
}

/** Whether a file is stored at `path`, and when, without reading its bytes (a revalidation needs no more). */
export function findMediaFileStamp(db: Executor, path: string) {
  return db.selectFrom('media_files').select('created_at').where('path', '=', path).executeTakeFirst();
}

/**
 * The stored files at these paths, share-locked until the caller's
 * transaction ends so the pruner cannot delete one that is being referenced
 * (it skips locked rows). With `ownerId`, only that account's files.
 */
export function lockMediaFiles(trx: Executor, paths: readonly string[], folder: string, ownerId?: number) {
  if (paths.length === 0) return Promise.resolve([]);
  let query = trx.selectFrom('media_files').select(['path', 'url']).where('path', 'in', paths).where('folder', '=', folder);
  if (ownerId !== undefined) query = query.where('user_id', '=', ownerId);
  return query.forShare().execute();
}

/**
 * One pass over the files due for a reference check (older than `dueBefore`,
 * or last found referenced before it): each referenced one is marked checked
 * and comes round again after another grace period; the rest are deleted.
 * References are the exact URL in a live review, or in any product's or
 * variant's images. One statement, so the row locks last only as long as it
 * does; a file a writer is referencing right now is locked and skipped.
 */
export async function pruneMediaFiles(
  db: Executor,
  dueBefore: Date,
  now: Date,
  batchSize: number,
): Promise<{ kept: number; deleted: number }> {
  const result = await sql<{ kept: number; deleted: number }>`
    WITH due AS (
      SELECT id, url FROM media_files
      WHERE coalesce(checked_at, created_at) < ${dueBefore}
      ORDER BY coalesce(checked_at, created_at)
      LIMIT ${batchSize}
      FOR UPDATE SKIP LOCKED
    ),
    judged AS (
      SELECT d.id,
        EXISTS (SELECT 1 FROM reviews r WHERE r.images <> '[]'::jsonb AND r.deleted_at IS NULL
                AND r.images @> jsonb_build_array(jsonb_build_object('image_url', d.url)))
        OR EXISTS (SELECT 1 FROM products p WHERE p.images <> '[]'::jsonb AND p.images @> jsonb_build_array(jsonb_build_object('url', d.url)))
        OR EXISTS (SELECT 1 FROM variants v WHERE v.images <> '[]'::jsonb AND v.images @> jsonb_build_array(jsonb_build_object('url', d.url)))
        AS referenced
      FROM due d
    ),
    kept AS (
      UPDATE media_files m SET checked_at = ${now} FROM judged j WHERE m.id = j.id AND j.referenced RETURNING m.id
    ),
    deleted AS (
      DELETE FROM media_files m USING judged j WHERE m.id = j.id AND NOT j.referenced RETURNING m.id
    )
    SELECT (SELECT count(*) FROM kept)::int AS kept, (SELECT count(*) FROM deleted)::int AS deleted
  `.execute(db);
  return result.rows[0] ?? { kept: 0, deleted: 0 };
}

/** Where the built-in image host serves files, as the instances last started say; null before any did. */
export async function recordedMediaEndpoint(db: Executor): Promise<string | null> {
  const row = await db.selectFrom('media_endpoint').select('url').executeTakeFirst();
  return row?.url ?? null;
}

/**
 * Moves the stored files served under another address to `endpoint` (each file's URL is its address
 * and its path), records `endpoint` as the one files are served under, and returns the addresses
 * moved from, for the tables that name the files to follow.
 */
export async function moveMediaFiles(trx: Executor, endpoint: string): Promise<string[]> {
  // Instances starting at once take turns (a transaction's lock, which a pooler cannot strand): the second finds nothing to move.
  await sql`SELECT pg_advisory_xact_lock(hashtext('media-endpoint'))`.execute(trx);
  const moved = await sql<{ endpoint: string }>`
    SELECT DISTINCT left(url, length(url) - length(path)) AS endpoint FROM media_files WHERE url <> ${endpoint} || path`.execute(trx);
  await sql`UPDATE media_files SET url = ${endpoint} || path WHERE url <> ${endpoint} || path`.execute(trx);
  await sql`
    INSERT INTO media_endpoint (url) VALUES (${endpoint})
    ON CONFLICT (singleton) DO UPDATE SET url = excluded.url, updated_at = now() WHERE media_endpoint.url <> excluded.url`.execute(trx);
  return moved.rows.map((row) => row.endpoint);
}
