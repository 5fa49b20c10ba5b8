import { ApiError } from '@commerce/client';
import { queryOptions, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { api } from './client';
import type { Role } from './domain';
import { sessionKeys } from './query-keys';
import { useWrite } from './writes';

/** The signed-in account, or null: the one query every screen's guard and the layout share. */
export const sessionQuery = queryOptions({
  queryKey: sessionKeys.me,
  queryFn: async () => {
    // Whether anyone is signed in is asked first: that answer is always a 200, so a visitor who is not
    // signed in meets the sign-in screen without a refused request in the browser's console.
    if (!(await api.GET('/api/v1/auth/session')).data.authenticated) return null;
    try {
      return (await api.GET('/api/v1/users/me')).data;
    } catch (error) {
      if (ApiError.is(error) && error.status === 401) return null;
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

/** Signing out ends the session; everything read under it is forgotten. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useWrite({
    mutationFn: () => api.DELETE('/api/v1/auth/session'),
    invalidates: [],
    onSuccess: () => {
      sessionEnd.bySignOut = true;
      queryClient.clear();
    },
  });
}
