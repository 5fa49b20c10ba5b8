import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** Table shapes as Kysely sees them. Keep in step with src/db/migrations. */

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export type Role = 'CUSTOMER' | 'ADMIN' | 'SUPER_ADMIN';
export type UserStatus = 'ACTIVE' | 'SUSPENDED';

export interface UsersTable {
  id: Generated<number>;
  public_id: string;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  phone_number: string | null;
  role: ColumnType<Role, Role | undefined, Role>;
  status: ColumnType<UserStatus, UserStatus | undefined, UserStatus>;
  email_verified_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface SessionsTable {
  id: Generated<number>;
  public_id: string;
  user_id: number;
  token_hash: Buffer;
  created_at: CreatedAt;
  last_seen_at: UpdatedAt;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  user_agent: string | null;
  ip: string | null;
}

export interface RateLimitsTable {
  name: string;
  key: string;
  window_started_at: Timestamp;
  hits: number;
}

export interface AddressesTable {
  id: Generated<number>;
  public_id: string;
  user_id: number;
  recipient_name: string;
  phone_number: string;
  label: string | null;
  country: string;
  state: string;
  city: string;
  address_1: string;
  address_2: string | null;
  zip_code: string | null;
  is_default_shipping: ColumnType<boolean, boolean | undefined, boolean>;
  is_default_billing: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Timestamp | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  public_id: string;
  actor_user_id: number | null;
  actor_public_id: string | null;
  actor_email: string | null;
  actor_role: string | null;
  action: string;
  entity_type: string;
  entity_public_id: string | null;
  changes: ColumnType<unknown, string | null, never>;
  reason: string | null;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  created_at: CreatedAt;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  rate_limits: RateLimitsTable;
  addresses: AddressesTable;
  audit_log: AuditLogTable;
}

export type UserRow = Selectable<UsersTable>;
export type AddressRow = Selectable<AddressesTable>;
export type NewAddress = Insertable<AddressesTable>;
