import type { BodyOf, QueryOf } from '@commerce/client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { invitationKeys } from '../../api/query-keys';
import { useWrite } from '../../api/writes';

export type InvitationsQuery = NonNullable<QueryOf<'/api/v1/admin/staff-invitations'>>;

export const invitationsQuery = (query: InvitationsQuery) =>
  queryOptions({
    queryKey: invitationKeys.list(query),
    queryFn: () => api.GET('/api/v1/admin/staff-invitations', { params: { query } }),
    placeholderData: keepPreviousData,
  });

/** Invites a person by email to become ADMIN or SUPER_ADMIN; a new invitation replaces their open one. */
export function useInvite() {
  return useWrite({
    mutationFn: async (body: BodyOf<'/api/v1/admin/staff-invitations', 'post'>) =>
      (await api.POST('/api/v1/admin/staff-invitations', { body })).data,
    invalidates: [invitationKeys.all],
  });
}

/** Revokes an invitation: its link stops working. */
export function useRevokeInvitation() {
  return useWrite({
    mutationFn: (id: string) =>
      api.DELETE('/api/v1/admin/staff-invitations/{invitation_public_id}', { params: { path: { invitation_public_id: id } } }),
    invalidates: [invitationKeys.all],
  });
}
