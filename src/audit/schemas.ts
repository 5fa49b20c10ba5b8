import { Type, type Static } from 'typebox';
import { PageQuery } from '../lib/pagination.js';
import { Timestamp } from '../lib/schemas.js';
import { AUDIT_ACTION_NAMES, type AuditAction as AuditActionName } from './actions.js';

/** One of the actions of src/audit/actions.ts (each described there); an enum, so clients get the list from the document. */
export const AuditAction = Type.Unsafe<AuditActionName>(
  Type.String({ enum: AUDIT_ACTION_NAMES, description: 'What was done: one of the actions the audit log records' }),
);

export const AUDIT_ENTITY_TYPES = [
  'user',
  'session',
  'staff_invitation',
  'order',
  'product',
  'variant',
  'category',
  'inventory',
  'coupon',
  'review',
  'expense',
  'webhook_endpoint',
  'export',
] as const;
export type AuditEntityTypeName = (typeof AUDIT_ENTITY_TYPES)[number];
export const AuditEntityType = Type.Unsafe<AuditEntityTypeName>(
  Type.String({ enum: [...AUDIT_ENTITY_TYPES], description: 'What kind of thing an entry is about' }),
);

export const AuditQuery = Type.Object({
  ...PageQuery,
  actor: Type.Optional(Type.String({ maxLength: 254, description: 'usr_ ID or email of the actor' })),
  action: Type.Optional(AuditAction),
  entity_type: Type.Optional(AuditEntityType),
  entity_public_id: Type.Optional(Type.String({ maxLength: 100 })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Inclusive' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Exclusive' })),
  format: Type.Optional(
    Type.Literal('csv', {
      description: 'The whole filtered log as CSV, streamed (page and limit do not apply; also with Accept: text/csv)',
    }),
  ),
});
export type AuditQuery = Static<typeof AuditQuery>;

export const AuditEntry = Type.Object({
  public_id: Type.String(),
  actor: Type.Union([Type.Object({ public_id: Type.String(), email: Type.String(), role: Type.String() }), Type.Null()]),
  action: AuditAction,
  entity_type: AuditEntityType,
  entity_public_id: Type.Union([Type.String(), Type.Null()]),
  entity_label: Type.Union([Type.String(), Type.Null()], {
    description: "What the entity is called now: an order's number, an account's email, a SKU, a name, a coupon's code",
  }),
  changes: Type.Unknown({ description: '{ before, after } or null' }),
  reason: Type.Union([Type.String(), Type.Null()]),
  ip: Type.Union([Type.String(), Type.Null()]),
  user_agent: Type.Union([Type.String(), Type.Null()]),
  request_id: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
});
export type AuditEntry = Static<typeof AuditEntry>;
