import type { BodyOf } from '@commerce/client';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { sessionKeys } from '../../api/query-keys';
import { useWrite } from '../../api/writes';

/** The signed-in account's sessions: browsers and devices signed in, this one marked. */
export const sessionsQuery = queryOptions({
  queryKey: sessionKeys.list,
  queryFn: () => api.GET('/api/v1/auth/sessions', { params: { query: { page: 1, limit: 100 } } }),
});

/** Signs out one session (by ID), or every other one (null). */
export function useRevokeSessions() {
  return useWrite({
    mutationFn: (id: string | null) =>
      id
        ? api.DELETE('/api/v1/auth/sessions/{session_public_id}', { params: { path: { session_public_id: id } } })
        : api.DELETE('/api/v1/auth/sessions'),
    invalidates: [sessionKeys.list],
  });
}

/** Changing the password signs out the account's other sessions. */
export function useChangePassword() {
  return useWrite({
    mutationFn: (body: BodyOf<'/api/v1/users/me/password', 'patch'>) => api.PATCH('/api/v1/users/me/password', { body }),
    invalidates: [sessionKeys.list],
  });
}
