import { Type, type Static } from 'typebox';
import { PageQuery } from '../lib/pagination.js';
import { Timestamp } from '../lib/schemas.js';

export const AuditQuery = Type.Object({
  ...PageQuery,
  actor: Type.Optional(Type.String({ description: 'usr_ ID or email of the actor' })),
  action: Type.Optional(Type.String({ maxLength: 100, description: 'Exact action, e.g. inventory.adjust' })),
  entity_type: Type.Optional(Type.String({ maxLength: 50 })),
  entity_public_id: Type.Optional(Type.String({ maxLength: 100 })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Inclusive' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Exclusive' })),
  format: Type.Optional(Type.Literal('csv', { description: 'CSV instead of JSON (also with Accept: text/csv)' })),
});
export type AuditQuery = Static<typeof AuditQuery>;

export const AuditEntry = Type.Object({
  public_id: Type.String(),
  actor: Type.Union([Type.Object({ public_id: Type.String(), email: Type.String(), role: Type.String() }), Type.Null()]),
  action: Type.String(),
  entity_type: Type.String(),
  entity_public_id: Type.Union([Type.String(), Type.Null()]),
  changes: Type.Unknown({ description: '{ before, after } or null' }),
  reason: Type.Union([Type.String(), Type.Null()]),
  ip: Type.Union([Type.String(), Type.Null()]),
  user_agent: Type.Union([Type.String(), Type.Null()]),
  request_id: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
});
export type AuditEntry = Static<typeof AuditEntry>;
