import { text } from '../../lib/search';

/** The invitation link's token (`?token=…`), as the email carries it. */
export const acceptInvitationSearch = (search: Record<string, unknown>): { token?: string | undefined } => ({
  token: text(search.token, 200),
});
