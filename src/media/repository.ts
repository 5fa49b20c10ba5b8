import type { Executor } from '../db/database.js';

/** Upload tokens: issued by GET /uploads/media-auth, bound to a folder, used once. */

export async function insertUploadToken(db: Executor, token: { token: string; userId: number; folder: string; expiresAt: Date }): Promise<void> {
  await db
    .insertInto('upload_tokens')
    .values({ token: token.token, user_id: token.userId, folder: token.folder, expires_at: token.expiresAt })
    .execute();
}

/**
 * Marks the token used if it is ours, for this folder, unexpired and unused,
 * in one conditional UPDATE, so two uploads racing with one token cannot both win.
 */
export async function consumeUploadToken(db: Executor, token: string, folder: string, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('upload_tokens')
    .set({ used_at: now })
    .where('token', '=', token)
    .where('folder', '=', folder)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('token')
    .executeTakeFirst();
  return row !== undefined;
}

/** Read only after a failed consume, to say why it failed. */
export function findUploadToken(db: Executor, token: string) {
  return db.selectFrom('upload_tokens').select(['folder', 'expires_at', 'used_at']).where('token', '=', token).executeTakeFirst();
}
