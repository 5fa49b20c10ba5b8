import type { BodyOf } from '@commerce/client';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { isStaff, sessionEnd, sessionQuery } from '../../api/session';
import { useWrite } from '../../api/writes';

/**
 * Signs in; nothing read under the previous session is kept. A customer account gets a session too,
 * but has no business here: that session is ended at once and `staff` is false.
 */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useWrite({
    mutationFn: async (credentials: BodyOf<'/api/v1/auth/login', 'post'>) => {
      await api.POST('/api/v1/auth/login', { body: credentials });
      queryClient.clear();
      if (isStaff(await queryClient.fetchQuery(sessionQuery))) {
        sessionEnd.bySignOut = false;
        return { staff: true };
      }
      await api.DELETE('/api/v1/auth/session').catch(() => undefined);
      queryClient.clear();
      return { staff: false };
    },
    invalidates: [],
  });
}
