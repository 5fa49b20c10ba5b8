import type { Executor } from '../db/database.js';

/**
 * Emails are queued here in the same transaction as the change that causes
 * them (contract section 13), so a committed change always has its email and
 * a rolled-back one never does. A background worker delivers them.
 */
export type EmailKind =
  | 'verify_email'
  | 'email_change_confirm'
  | 'email_changed_notice'
  | 'password_reset'
  | 'order_placed'
  | 'order_shipped';

export async function enqueueEmail(db: Executor, kind: EmailKind, recipient: string, payload: Record<string, unknown>): Promise<void> {
  await db.insertInto('outbox').values({ kind, recipient, payload: JSON.stringify(payload) }).execute();
}

/** Delivered messages are kept for support a while, then deleted in batches. */
export async function deleteDeliveredEmails(db: Executor, deliveredBefore: Date, batchSize: number): Promise<number> {
  const result = await db
    .deleteFrom('outbox')
    .where('id', 'in', (eb) =>
      eb.selectFrom('outbox').select('id').where('delivered_at', 'is not', null).where('delivered_at', '<', deliveredBefore).limit(batchSize),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
