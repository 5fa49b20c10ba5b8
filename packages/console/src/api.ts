import { QueryClient } from '@tanstack/react-query';
import { createApi } from '@commerce/client';
import { asRefusal } from './lib/errors';

/** The typed client, same origin: the session cookie and CSRF token are handled inside it. */
export const api = createApi({ baseUrl: window.location.origin });

export const queryClient = new QueryClient({
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
