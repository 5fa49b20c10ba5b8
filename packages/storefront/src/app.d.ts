import type { Shop } from '$lib/server/shop';
import type { InProcessApi } from '$lib/server/transport';

declare global {
  namespace App {
    /** What an error page gets: a sentence for the shopper, never a stack or the API's raw answer. */
    interface Error {
      message: string;
      /** The API's error code, when the API refused (NOT_FOUND, RATE_LIMITED, SERVICE_UNAVAILABLE, ...). */
      code?: string;
      /** Seconds to wait before trying again (429, 503). */
      retryAfter?: number;
      /** Quote it to support: the same ID is in the service's log. */
      requestId?: string;
    }
    interface Locals {
      shop: Shop;
    }
    interface Platform {
      /** Present when the service serves the storefront itself (src/storefront/routes.ts): the API in the same process. */
      commerce?: InProcessApi;
    }
  }
}

export {};
