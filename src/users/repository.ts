import type { Executor } from '../db/database.js';
import type { Role, UserRow } from '../db/schema.js';
import { newPublicId } from '../lib/ids.js';

export function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findUserById(db: Executor, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface NewUser {
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  phoneNumber: string | null;
  role: Role;
}

/** Inserts an account; a taken email surfaces as a unique violation on `users_email_key`. */
export function insertUser(db: Executor, user: NewUser): Promise<UserRow> {
  return db
    .insertInto('users')
    .values({
      public_id: newPublicId('usr'),
      email: user.email,
      password_hash: user.passwordHash,
      first_name: user.firstName,
      last_name: user.lastName,
      phone_number: user.phoneNumber,
      role: user.role,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateUser(
  db: Executor,
  id: number,
  changes: Partial<Pick<UserRow, 'first_name' | 'last_name' | 'phone_number' | 'password_hash' | 'email' | 'role'>>,
): Promise<UserRow> {
  return db
    .updateTable('users')
    .set({ ...changes, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
