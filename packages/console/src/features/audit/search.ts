import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES, type AuditAction, type AuditEntityType } from '../../api/domain';
import { date, oneOf, pageOrNone, text } from '../../lib/search';

export interface AuditSearch {
  page?: number | undefined;
  actor?: string | undefined;
  /** One of the actions the log records (the API's list); anything else is dropped. */
  action?: AuditAction | undefined;
  entity?: AuditEntityType | undefined;
  entity_id?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export const auditSearch = (search: Record<string, unknown>): AuditSearch => ({
  page: pageOrNone(search.page),
  actor: text(search.actor),
  action: oneOf(search.action, AUDIT_ACTIONS),
  entity: oneOf(search.entity, AUDIT_ENTITY_TYPES),
  entity_id: text(search.entity_id, 100),
  from: date(search.from),
  to: date(search.to),
});
