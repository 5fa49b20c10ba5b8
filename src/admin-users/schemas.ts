import { Type, type Static } from 'typebox';
import { PageQuery, SortQuery } from '../lib/pagination.js';
import { Money } from '../lib/schemas.js';
import { Role, User } from '../identity/schemas.js';

/** `name` sorts by last name, then first name. */
export const ACCOUNT_SORTS = ['created_at', 'email', 'name'] as const;
export type AccountSortField = (typeof ACCOUNT_SORTS)[number];

/** A role, or STAFF: the people who run the store (ADMIN and SUPER_ADMIN), the console's Staff list. */
export const RoleFilter = Type.Union([...Role.anyOf, Type.Literal('STAFF')], {
  description: 'Accounts with this role; STAFF: ADMIN and SUPER_ADMIN accounts together',
});

export const AdminUserListQuery = Type.Object({
  ...PageQuery,
  sort: SortQuery(ACCOUNT_SORTS, '-created_at'),
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Substring of name or email' })),
  role: Type.Optional(RoleFilter),
  status: Type.Optional(Type.Union([Type.Literal('ACTIVE'), Type.Literal('SUSPENDED')])),
  joined_from: Type.Optional(Type.String({ format: 'date-time', description: 'Accounts created at or after this instant (inclusive)' })),
  joined_to: Type.Optional(Type.String({ format: 'date-time', description: 'Accounts created before this instant (exclusive)' })),
});
export type AdminUserListQuery = Static<typeof AdminUserListQuery>;

export const AccountExportQuery = Type.Object({
  role: Type.Optional(RoleFilter),
  status: Type.Optional(Type.Union([Type.Literal('ACTIVE'), Type.Literal('SUSPENDED')])),
});

export const AdminUserDetail = Type.Object(
  {
    ...User.properties,
    order_count: Type.Integer({ description: 'Orders placed, cancelled ones included' }),
    lifetime_spend: { ...Money, description: 'Sum of totals of orders that were not cancelled' },
  },
  { $id: 'AdminUserDetail' },
);
export type AdminUserDetail = Static<typeof AdminUserDetail>;

export const RoleChange = Type.Object({ role: Role }, { additionalProperties: false });
export type RoleChange = Static<typeof RoleChange>;
