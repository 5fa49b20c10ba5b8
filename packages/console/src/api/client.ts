import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError, createApi } from '@commerce/client';
import { sessionKeys } from './query-keys';

/** The typed client, same origin: the session cookie and CSRF token are handled inside it. */
export const api = createApi({ baseUrl: window.location.origin });

/**
 * A 401 means the session is gone (expired, revoked from another device, the account suspended):
 * the session is asked again, and the staff frame sends the person to sign in and back here after.
 */
const sessionMayHaveEnded = (error: unknown) => {
  if (ApiError.is(error) && error.status === 401) void queryClient.invalidateQueries({ queryKey: sessionKeys.me });
};

export const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: sessionMayHaveEnded }),
  mutationCache: new MutationCache({ onError: sessionMayHaveEnded }),
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      // A refusal (4xx) will not change on retry; a network failure or 503 may.
      retry: (failures, error) => failures < 2 && (!ApiError.is(error) || error.status >= 500),
      refetchOnWindowFocus: true,
    },
  },
});
