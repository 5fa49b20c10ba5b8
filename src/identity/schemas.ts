import { Type, type Static } from 'typebox';
import { RequiredText, Timestamp } from '../lib/schemas.js';
import { MIXED_PASSWORD, secret } from '../lib/text.js';
import type { UserRow } from '../db/schema.js';

/** The account as every module shows it: one declaration for auth, profile and admin routes. */

export const Role = Type.Union([Type.Literal('CUSTOMER'), Type.Literal('ADMIN'), Type.Literal('SUPER_ADMIN')]);

export const Email = Type.String({ format: 'email', maxLength: 254, description: 'Compared case-insensitively' });
export const PhoneNumber = Type.String({ pattern: '^\\+[1-9][0-9]{1,14}$', maxLength: 16, description: 'E.164, e.g. +14155550100' });
export const Name = RequiredText(100, { description: '1-100 characters on one line, at least one of them visible' });
export const Password = Type.String({
  minLength: 8,
  maxLength: 128,
  pattern: MIXED_PASSWORD,
  description: '8-128 characters, at least two kinds of lower case, upper case, digits and symbols',
  ...secret,
});

/** A password to check against the account's: any length a stored one could have had. */
export const CurrentPassword = Type.String({ minLength: 1, maxLength: 1024, ...secret });

export const User = Type.Object(
  {
    public_id: Type.String(),
    email: Type.String(),
    first_name: Type.String(),
    last_name: Type.String(),
    phone_number: Type.Union([Type.String(), Type.Null()]),
    role: Role,
    email_verified: Type.Boolean(),
    status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('SUSPENDED')]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'User' },
);
export type User = Static<typeof User>;

export function toUser(row: UserRow): User {
  return {
    public_id: row.public_id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    phone_number: row.phone_number,
    role: row.role,
    email_verified: row.email_verified_at !== null,
    status: row.status,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
