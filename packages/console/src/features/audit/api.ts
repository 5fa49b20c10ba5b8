import type { QueryOf } from '@commerce/client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { auditKeys } from '../../api/query-keys';

export type AuditQuery = NonNullable<QueryOf<'/api/v1/admin/audit'>>;

/** A page of the audit log, newest first (the API has no other order). */
export const auditQuery = (query: AuditQuery) =>
  queryOptions({
    queryKey: auditKeys.list(query),
    queryFn: () => api.GET('/api/v1/admin/audit', { params: { query } }),
    placeholderData: keepPreviousData,
  });
