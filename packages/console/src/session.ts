import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import { api, SESSION_KEY } from './api';
import { asRefusal } from './lib/errors';

export type Role = 'CUSTOMER' | 'ADMIN' | 'SUPER_ADMIN';

/** The signed-in account, or null: the one query every screen's guard and the layout share. */
export const sessionQuery = queryOptions({
  queryKey: SESSION_KEY,
  queryFn: async () => {
    try {
      return (await api.GET('/api/v1/users/me')).data;
    } catch (error) {
      if (asRefusal(error)?.status === 401) return null;
      throw error;
    }
  },
  staleTime: 60_000,
});

export type SessionUser = NonNullable<Awaited<ReturnType<NonNullable<typeof sessionQuery.queryFn>>>>;

export const isStaff = (user: { role: Role } | null | undefined) => user?.role === 'ADMIN' || user?.role === 'SUPER_ADMIN';

/** The current staff member; only rendered under the staff guard, so never null there. */
export function useStaff(): SessionUser & { isSuper: boolean } {
  const { data } = useSuspenseQuery(sessionQuery);
  if (!data) throw new Error('useStaff outside the staff guard');
  return { ...data, isSuper: data.role === 'SUPER_ADMIN' };
}

/**
 * Set when the person signs out here, cleared when someone signs in: a session that ends while a
 * screen is open (expired, revoked from another device) sends them to sign in and back to that
 * screen after; signing out on purpose does not.
 */
export const sessionEnd = { bySignOut: false };
