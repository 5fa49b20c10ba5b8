import type { BodyOf } from '@commerce/client';
import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { invitationPreviewKeys } from '../../api/query-keys';
import { sessionEnd, sessionQuery } from '../../api/session';
import { useWrite } from '../../api/writes';

/** Who an invitation link is for, before it is accepted (404 unknown, 410 used, expired or revoked). */
export const invitationPreviewQuery = (token: string) =>
  queryOptions({
    queryKey: invitationPreviewKeys.token(token),
    queryFn: async () => (await api.POST('/api/v1/auth/staff-invitations/preview', { body: { token } })).data,
    staleTime: Infinity,
  });

/**
 * Accepts an invitation: the staff account is made with the name and password given, and signed in.
 * Nothing read under a session before is kept (but who the link was for); the new account is the session from here on.
 */
export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useWrite({
    mutationFn: async (body: BodyOf<'/api/v1/auth/staff-invitations/accept', 'post'>) => {
      const user = (await api.POST('/api/v1/auth/staff-invitations/accept', { body })).data;
      // The link's preview stays: read again now, it would say the link is used while the screen is still up.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== invitationPreviewKeys.all[0] });
      sessionEnd.bySignOut = false;
      await queryClient.fetchQuery(sessionQuery);
      return user;
    },
    invalidates: [],
  });
}
