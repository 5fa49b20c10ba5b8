import { Type, type Static } from 'typebox';
import { CurrentPassword, Email, Name, Password, PhoneNumber } from '../identity/schemas.js';

export const ProfilePatch = Type.Object(
  { first_name: Type.Optional(Name), last_name: Type.Optional(Name), phone_number: Type.Optional(Type.Union([PhoneNumber, Type.Null()])) },
  { additionalProperties: false, minProperties: 1 },
);
export type ProfilePatch = Static<typeof ProfilePatch>;

export const PasswordChange = Type.Object({ current_password: CurrentPassword, new_password: Password }, { additionalProperties: false });
export type PasswordChange = Static<typeof PasswordChange>;

export const EmailChangeStart = Type.Object({ new_email: Email, password: CurrentPassword }, { additionalProperties: false });
export type EmailChangeStart = Static<typeof EmailChangeStart>;

export const EmailChangeVerify = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });
