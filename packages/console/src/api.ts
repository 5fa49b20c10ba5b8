import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { createApi } from '@commerce/client';
import { asRefusal } from './lib/errors';

/** The typed client, same origin: the session cookie and CSRF token are handled inside it. */
export const api = createApi({ baseUrl: window.location.origin });

/** The signed-in account's query key (the query itself is `sessionQuery`, in session.ts). */
export const SESSION_KEY = ['session'] as const;

/**
 * A 401 means the session is gone (expired, revoked from another device, the account suspended):
 * the session is asked again, and the staff frame sends the person to sign in and back here after.
 */
const sessionMayHaveEnded = (error: unknown) => {
  if (asRefusal(error)?.status === 401) void queryClient.invalidateQueries({ queryKey: SESSION_KEY });
};

export const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: sessionMayHaveEnded }),
  mutationCache: new MutationCache({ onError: sessionMayHaveEnded }),
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      // A refusal (4xx) will not change on retry; a network failure or 503 may.
      retry: (failures, error) => {
        const status = asRefusal(error)?.status ?? 0;
        return failures < 2 && (status === 0 || status >= 500);
      },
      refetchOnWindowFocus: true,
    },
  },
});
