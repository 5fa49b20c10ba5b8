/** An account's role, lowest first (the users table stores it: src/db/schema.ts). */
export type Role = 'CUSTOMER' | 'ADMIN' | 'SUPER_ADMIN';

/** Who is acting: the signed-in account and the session it acts through. */
export interface Actor {
  readonly userId: number;
  readonly publicId: string;
  readonly email: string;
  readonly role: Role;
  readonly sessionId: number;
  readonly sessionPublicId: string;
}

/** Facts about the request that services record (audit, sessions) but never decide on. */
export interface RequestMeta {
  readonly requestId: string;
  readonly ip: string;
  readonly userAgent: string | null;
}

/** Every service operation receives the context first (actor, then its input). */
export interface Ctx {
  readonly actor: Actor | null;
  readonly meta: RequestMeta;
}

/** A context whose actor is known to be signed in (the route guard ran). */
export interface AuthedCtx extends Ctx {
  readonly actor: Actor;
}

const ROLE_RANK: Record<Role, number> = { CUSTOMER: 0, ADMIN: 1, SUPER_ADMIN: 2 };

export const hasRole = (role: Role, atLeast: Role): boolean => ROLE_RANK[role] >= ROLE_RANK[atLeast];
