import { ApiError, type BodyOf } from '@commerce/client';
import { queryOptions, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
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
      const user = (await api.GET('/api/v1/users/me')).data;
      if (isStaff(user)) sessionEnd.lastStaff = user;
      return user;
    } catch (error) {
      if (ApiError.is(error) && error.status === 401) return null;
      throw error;
    }
  },
  staleTime: 60_000,
});

export type SessionUser = NonNullable<Awaited<ReturnType<NonNullable<typeof sessionQuery.queryFn>>>>;

export const isStaff = <U extends { role: Role }>(user: U | null | undefined): user is U =>
  user?.role === 'ADMIN' || user?.role === 'SUPER_ADMIN';

/**
 * Set when the person signs out here, cleared when someone signs in: a session that ends while a
 * screen is open (expired, revoked from another device) asks them to sign in again over that screen;
 * signing out on purpose does not. `lastStaff` is who was signed in: the screens keep showing what
 * they read as that person while the session is gone, and only that person can take it up again.
 */
export const sessionEnd: { bySignOut: boolean; lastStaff: SessionUser | null } = { bySignOut: false, lastStaff: null };

/** Who a session that ended under an open screen belonged to, or null (signed out here, or never signed in). */
export const endedStaffSession = (user: SessionUser | null): SessionUser | null =>
  isStaff(user) || sessionEnd.bySignOut ? null : sessionEnd.lastStaff;

/** The current staff member; only rendered under the staff guard (or over a session that ended, above), so never null there. */
export function useStaff(): SessionUser & { isSuper: boolean } {
  const { data } = useSuspenseQuery(sessionQuery);
  const user = isStaff(data) ? data : endedStaffSession(data);
  if (!user) throw new Error('useStaff outside the staff guard');
  return { ...user, isSuper: user.role === 'SUPER_ADMIN' };
}

/** Signing out ends the session; everything read under it is forgotten. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useWrite({
    mutationFn: () => api.DELETE('/api/v1/auth/session'),
    invalidates: [],
    onSuccess: () => {
      sessionEnd.bySignOut = true;
      sessionEnd.lastStaff = null;
      queryClient.clear();
    },
  });
}

/**
 * Signs the same person in again after their session ended under an open screen. Nothing read is
 * forgotten (it was read as them, and a cleared cache would take the screen, and what was typed on
 * it, away): the session is read again, then every screen's data and any screen that failed for
 * want of a session. An account that lost its staff role meanwhile is signed out at once.
 */
export function useSignInAgain() {
  const queryClient = useQueryClient();
  const router = useRouter();
  return useWrite({
    mutationFn: async (credentials: BodyOf<'/api/v1/auth/login', 'post'>) => {
      await api.POST('/api/v1/auth/login', { body: credentials });
      await queryClient.refetchQueries({ queryKey: sessionKeys.me });
      if (!isStaff(queryClient.getQueryData(sessionQuery.queryKey))) {
        await api.DELETE('/api/v1/auth/session').catch(() => undefined);
        return { staff: false };
      }
      void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== sessionKeys.me[0] });
      void router.invalidate();
      return { staff: true };
    },
    invalidates: [],
  });
}
