import type { Executor } from '../db/database.js';
import type { Role, UserRow } from '../db/schema.js';
import { newPublicId } from '../lib/ids.js';

/**
 * SQL of the `users` table, its one owner: every module that reads an
 * account by key or changes one comes here (auth, profile, admin, the
 * admin:create script). Read models elsewhere may join `users` for a name or
 * an email; none writes it.
 */

export function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findUserById(db: Executor, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** An account by public ID, optionally row-locked for a read-modify-write. */
export function findUserByPublicId(db: Executor, publicId: string, lock = false): Promise<UserRow | undefined> {
  let query = db.selectFrom('users').selectAll().where('public_id', '=', publicId);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** Every SUPER_ADMIN row, locked in id order: role changes that could leave none serialise here. */
export function lockSuperAdmins(db: Executor): Promise<Pick<UserRow, 'id' | 'status'>[]> {
  return db.selectFrom('users').select(['id', 'status']).where('role', '=', 'SUPER_ADMIN').orderBy('id').forUpdate().execute();
}

/** Where notices for the store's owners go: every active SUPER_ADMIN's email. */
export async function activeSuperAdminEmails(db: Executor): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .select('email')
    .where('role', '=', 'SUPER_ADMIN')
    .where('status', '=', 'ACTIVE')
    .orderBy('id')
    .execute();
  return rows.map((row) => row.email);
}

/**
 * Serialises writes that decide by reading several rows of one account (the
 * address book) and every write of its tokens (src/db/LOCKING.md, step 17).
 * NO KEY UPDATE does not block inserts elsewhere that reference the user.
 */
export async function lockAccount(db: Executor, userId: number): Promise<void> {
  await db.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().execute();
}

export interface NewUser {
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  phoneNumber: string | null;
  role: Role;
  /** Set when the address was proved another way (an invitation link sent to it). */
  emailVerifiedAt?: Date;
}

const newUserRow = (user: NewUser) => ({
  public_id: newPublicId('usr'),
  email: user.email,
  password_hash: user.passwordHash,
  first_name: user.firstName,
  last_name: user.lastName,
  phone_number: user.phoneNumber,
  role: user.role,
  ...(user.emailVerifiedAt ? { email_verified_at: user.emailVerifiedAt } : {}),
});

/** Inserts an account; a taken email is a unique violation on `users_email_key` (409 EMAIL_TAKEN). */
export function insertUser(db: Executor, user: NewUser): Promise<UserRow> {
  return db.insertInto('users').values(newUserRow(user)).returningAll().executeTakeFirstOrThrow();
}

/** Creates a verified administrator, or raises the account with that email to the role with the new password. */
export function upsertAdministrator(db: Executor, user: NewUser, now: Date): Promise<UserRow> {
  return db
    .insertInto('users')
    .values({ ...newUserRow(user), email_verified_at: now })
    .onConflict((oc) => oc.column('email').doUpdateSet({ role: user.role, password_hash: user.passwordHash, updated_at: now }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export type UserChanges = Partial<
  Pick<UserRow, 'first_name' | 'last_name' | 'phone_number' | 'password_hash' | 'email' | 'role' | 'status' | 'email_verified_at'>
>;

/** Changes an account; a taken email is a unique violation on `users_email_key` (409 EMAIL_TAKEN). */
export function updateUser(db: Executor, id: number, changes: UserChanges, now: Date): Promise<UserRow> {
  return db
    .updateTable('users')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Marks the address proven without touching `updated_at` (a password reset proves it on the side). */
export async function markEmailVerified(db: Executor, id: number, now: Date): Promise<void> {
  await db.updateTable('users').set({ email_verified_at: now }).where('id', '=', id).execute();
}
