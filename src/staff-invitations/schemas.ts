import { Type, type Static } from 'typebox';
import { Email, Name, Password } from '../identity/schemas.js';
import { PageQuery } from '../lib/pagination.js';
import { Timestamp } from '../lib/schemas.js';

export const StaffRole = Type.Union([Type.Literal('ADMIN'), Type.Literal('SUPER_ADMIN')]);
export const InvitationState = Type.Union([
  Type.Literal('PENDING'),
  Type.Literal('EXPIRED'),
  Type.Literal('ACCEPTED'),
  Type.Literal('REVOKED'),
]);

export const InvitationCreate = Type.Object({ email: Email, role: StaffRole }, { additionalProperties: false });
export type InvitationCreate = Static<typeof InvitationCreate>;

export const Invitation = Type.Object({
  public_id: Type.String(),
  email: Type.String(),
  role: StaffRole,
  state: InvitationState,
  invited_by_email: Type.String(),
  created_at: Timestamp,
  expires_at: Timestamp,
  accepted_at: Type.Union([Timestamp, Type.Null()]),
  revoked_at: Type.Union([Timestamp, Type.Null()]),
});
export type Invitation = Static<typeof Invitation>;

export const InvitationListQuery = Type.Object({
  ...PageQuery,
  state: Type.Optional(InvitationState),
});
export type InvitationListQuery = Static<typeof InvitationListQuery>;

const Token = Type.String({ minLength: 1, maxLength: 200, description: 'The token from the invitation link' });

export const InvitationTokenBody = Type.Object({ token: Token }, { additionalProperties: false });
export type InvitationTokenBody = Static<typeof InvitationTokenBody>;

/** What the acceptance page shows before the person sets a password. */
export const InvitationPreview = Type.Object({ email: Type.String(), role: StaffRole, expires_at: Timestamp });
export type InvitationPreview = Static<typeof InvitationPreview>;

export const InvitationAccept = Type.Object(
  { token: Token, first_name: Name, last_name: Name, password: Password },
  { additionalProperties: false },
);
export type InvitationAccept = Static<typeof InvitationAccept>;
