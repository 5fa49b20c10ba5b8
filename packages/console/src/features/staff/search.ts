import { INVITATION_STATES, type InvitationState } from '../../api/domain';
import { oneOf, pageOrNone } from '../../lib/search';

export interface InvitationsSearch {
  page?: number | undefined;
  /** Default PENDING: the invitations still waiting for an answer; ALL for every one. */
  state?: InvitationState | 'ALL' | undefined;
}

export const invitationsSearch = (search: Record<string, unknown>): InvitationsSearch => ({
  page: pageOrNone(search.page),
  state: oneOf(search.state, [...INVITATION_STATES, 'ALL'] as const),
});
