import { date, pageOrNone, text } from '../../lib/search';

export interface AuditSearch {
  page?: number | undefined;
  actor?: string | undefined;
  action?: string | undefined;
  entity?: string | undefined;
  entity_id?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export const auditSearch = (search: Record<string, unknown>): AuditSearch => ({
  page: pageOrNone(search.page),
  actor: text(search.actor),
  action: text(search.action, 100),
  entity: text(search.entity, 50),
  entity_id: text(search.entity_id, 100),
  from: date(search.from),
  to: date(search.to),
});
