import { Type, type Static } from 'typebox';
import { Timestamp } from '../lib/schemas.js';
import { CurrentPassword, Email, Name, Password, PhoneNumber, Role } from '../identity/schemas.js';

export const RegisterBody = Type.Object(
  {
    email: Email,
    password: Password,
    first_name: Name,
    last_name: Name,
    phone_number: Type.Optional(PhoneNumber),
    role: Type.Optional(Type.Union([Role], { description: 'Ignored: every registration yields CUSTOMER' })),
  },
  { additionalProperties: false },
);
export type RegisterBody = Static<typeof RegisterBody>;

export const LoginBody = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 254 }), password: CurrentPassword },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBody>;

export const TokenBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });

export const PasswordResetRequest = Type.Object({ email: Type.String({ minLength: 1, maxLength: 254 }) }, { additionalProperties: false });

export const PasswordReset = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200 }), new_password: Password },
  { additionalProperties: false },
);

export const CsrfToken = Type.Object({ csrf_token: Type.String() });

export const SessionState = Type.Object({
  authenticated: Type.Boolean(),
  user: Type.Union([
    Type.Object({ public_id: Type.String(), email: Type.String(), role: Role, email_verified: Type.Boolean() }),
    Type.Null(),
  ]),
  expires_at: Type.Union([Timestamp, Type.Null()], {
    description: 'When the session ends if unused: the earlier of the absolute and idle expiry',
  }),
});
export type SessionState = Static<typeof SessionState>;

export const SessionSummary = Type.Object({
  public_id: Type.String(),
  created_at: Timestamp,
  last_seen_at: Timestamp,
  user_agent: Type.Union([Type.String(), Type.Null()]),
  ip: Type.Union([Type.String(), Type.Null()]),
  current: Type.Boolean(),
});
export type SessionSummary = Static<typeof SessionSummary>;
