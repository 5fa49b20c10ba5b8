import { createApi, type CommerceClientOptions, type PagedPath, type CallInit, type SuccessBody } from './client.js';
import type { paths } from './generated/openapi.js';

type BodyOf<P extends keyof paths, M extends keyof paths[P]> = NonNullable<CallInit<P, M>> extends { body?: infer B } ? B : never;
type QueryOf<P extends PagedPath> = NonNullable<NonNullable<CallInit<P, 'get'>>['params']> extends { query?: infer Q } ? Q : never;
type DataOf<P extends keyof paths, M extends keyof paths[P]> = NonNullable<SuccessBody<P, M>> extends { data: infer D } ? D : never;

/** The request options that send a caller's own Idempotency-Key (without one, the transport makes one: transport.ts). */
const keyed = (options: { idempotencyKey?: string }) =>
  options.idempotencyKey ? { headers: { 'idempotency-key': options.idempotencyKey } } : {};

/**
 * The client a storefront or dashboard uses: the typed low-level calls
 * (`GET`, `POST`, `PUT`, `PATCH`, `DELETE`, `page`, `pages`, `items`,
 * `upload`) and named helpers for the storefront's everyday calls, each
 * resolving to the response's `data` (lists: `{ data, meta }`).
 */
export function createCommerceClient(options: CommerceClientOptions) {
  const api = createApi(options);
  const data = <T extends { data: unknown }>(body: T) => body.data as T['data'];
  const list =
    <P extends PagedPath>(path: P) =>
    (query?: QueryOf<P>) =>
      (api.page as (path: P, init: unknown) => ReturnType<typeof api.page<P>>)(path, { params: { query } });
  const all =
    <P extends PagedPath>(path: P) =>
    (query?: QueryOf<P>) =>
      (api.items as (path: P, init: unknown) => ReturnType<typeof api.items<P>>)(path, { params: { query } });

  return {
    ...api,
    auth: {
      /** Signs up and in (sets the session cookie); the CSRF token is refreshed for the new session. */
      register: (body: BodyOf<'/api/v1/auth/register', 'post'>) => api.POST('/api/v1/auth/register', { body }).then(data),
      login: (body: BodyOf<'/api/v1/auth/login', 'post'>) => api.POST('/api/v1/auth/login', { body }).then(data),
      logout: () => api.DELETE('/api/v1/auth/session'),
      /** Who is signed in (`authenticated: false` when nobody). */
      session: () => api.GET('/api/v1/auth/session').then(data),
      verifyEmail: (token: string) => api.POST('/api/v1/auth/email-verification/verify', { body: { token } }).then(data),
      resendVerification: () => api.POST('/api/v1/auth/email-verification/resend'),
      requestPasswordReset: (email: string) => api.POST('/api/v1/auth/password-reset', { body: { email } }),
      /** Resolves when a reset link still works; NOT_FOUND or TOKEN_EXPIRED when it does not. The link stays unused. */
      checkPasswordReset: (token: string) => api.POST('/api/v1/auth/password-reset/check', { body: { token } }),
      resetPassword: (token: string, new_password: string) =>
        api.POST('/api/v1/auth/password-reset/verify', { body: { token, new_password } }),
    },
    account: {
      get: () => api.GET('/api/v1/users/me').then(data),
      update: (body: BodyOf<'/api/v1/users/me', 'patch'>) => api.PATCH('/api/v1/users/me', { body }).then(data),
      changePassword: (body: BodyOf<'/api/v1/users/me/password', 'patch'>) => api.PATCH('/api/v1/users/me/password', { body }),
    },
    addresses: {
      list: list('/api/v1/users/me/addresses'),
      get: (address_public_id: string) =>
        api.GET('/api/v1/users/me/addresses/{address_public_id}', { params: { path: { address_public_id } } }).then(data),
      /** Adds once per `idempotencyKey` (one is made for each call without it, and reused when the client retries). */
      create: (body: BodyOf<'/api/v1/users/me/addresses', 'post'>, options: { idempotencyKey?: string } = {}) =>
        api
          .POST('/api/v1/users/me/addresses', {
            body,
            ...keyed(options),
          })
          .then(data),
      update: (address_public_id: string, body: BodyOf<'/api/v1/users/me/addresses/{address_public_id}', 'patch'>) =>
        api.PATCH('/api/v1/users/me/addresses/{address_public_id}', { params: { path: { address_public_id } }, body }).then(data),
      remove: (address_public_id: string) =>
        api.DELETE('/api/v1/users/me/addresses/{address_public_id}', { params: { path: { address_public_id } } }),
    },
    /** The shop's name, currency and how checkout prices shipping and tax. */
    store: () => api.GET('/api/v1/store').then(data),
    products: {
      /** A page of the storefront catalogue: `search`, `category`, price and stock filters, `sort`, `page`, `limit`. */
      list: list('/api/v1/products'),
      /** Every matching product, page after page. */
      all: all('/api/v1/products'),
      get: (product_public_id: string) =>
        api.GET('/api/v1/products/{product_public_id}', { params: { path: { product_public_id } } }).then(data),
      bySlug: (slug: string) => api.GET('/api/v1/products/by-slug/{slug}', { params: { path: { slug } } }).then(data),
      /**
       * For a search that found nothing: the same search with its mistyped words replaced by the catalog's closest
       * ("shrit" -> "shirt"), or null; offered only when it finds products under the same filters ("Did you mean ...?").
       */
      searchSuggestion: (query: paths['/api/v1/products/search-suggestion']['get']['parameters']['query']) =>
        api
          .GET('/api/v1/products/search-suggestion', { params: { query } })
          .then(data)
          .then((suggestion) => suggestion.search),
      /** Each variant's stock now: IN_STOCK, LOW_STOCK (with `quantity_left`) or OUT_OF_STOCK. */
      stock: (product_public_id: string) =>
        api.GET('/api/v1/products/{product_public_id}/stock', { params: { path: { product_public_id } } }).then(data),
      /** A page of a product's published reviews, `{ data, meta }` like every list, plus this list's rating `summary`. */
      reviews: (product_public_id: string, query?: QueryOf<'/api/v1/products/{product_public_id}/reviews'>) =>
        api
          .GET('/api/v1/products/{product_public_id}/reviews', { params: { path: { product_public_id }, query } })
          .then(({ data, meta, summary }) => ({ data, meta, summary })),
    },
    categories: {
      list: list('/api/v1/categories'),
      get: (category_public_id: string) =>
        api.GET('/api/v1/categories/{category_public_id}', { params: { path: { category_public_id } } }).then(data),
      products: (category_public_id: string, query?: QueryOf<'/api/v1/categories/{category_public_id}/products'>) =>
        api.page('/api/v1/categories/{category_public_id}/products', { params: { path: { category_public_id }, query } }),
    },
    cart: {
      get: () => api.GET('/api/v1/cart').then(data),
      /** Adds once per `idempotencyKey` (one is made for each call without it, and reused when the client retries). */
      add: (body: BodyOf<'/api/v1/cart/items', 'post'>, options: { idempotencyKey?: string } = {}) =>
        api
          .POST('/api/v1/cart/items', {
            body,
            ...keyed(options),
          })
          .then(data),
      setQuantity: (variant_public_id: string, quantity: number) =>
        api.PATCH('/api/v1/cart/items/{variant_public_id}', { params: { path: { variant_public_id } }, body: { quantity } }).then(data),
      remove: (variant_public_id: string) =>
        api.DELETE('/api/v1/cart/items/{variant_public_id}', { params: { path: { variant_public_id } } }).then(data),
      clear: () => api.DELETE('/api/v1/cart'),
      /** Whether lines of a cart kept elsewhere (a visitor's) can be bought now, each as a cart line would say it; no session needed. */
      availability: (items: BodyOf<'/api/v1/cart/availability', 'post'>['items']) =>
        api.POST('/api/v1/cart/availability', { body: { items } }).then(data),
      /** What an order from the cart would cost now (checkout's arithmetic), with a coupon; refused as checkout would refuse it. */
      quote: (coupon_code?: string) => api.GET('/api/v1/cart/quote', { params: { query: coupon_code ? { coupon_code } : {} } }).then(data),
    },
    orders: {
      /**
       * Checks the cart out. An Idempotency-Key is generated (or pass your own,
       * e.g. kept across a page reload) and reused on network retries, so a
       * retried checkout never places a second order.
       */
      place: (body: BodyOf<'/api/v1/orders', 'post'>, options: { idempotencyKey?: string } = {}) =>
        api.POST('/api/v1/orders', { body, ...keyed(options) }).then(data),
      list: list('/api/v1/orders'),
      get: (order_public_id: string) => api.GET('/api/v1/orders/{order_public_id}', { params: { path: { order_public_id } } }).then(data),
      cancel: (order_public_id: string) =>
        api.POST('/api/v1/orders/{order_public_id}/cancel', { params: { path: { order_public_id } } }).then(data),
    },
    reviews: {
      create: (body: BodyOf<'/api/v1/reviews', 'post'>) => api.POST('/api/v1/reviews', { body }).then(data),
      update: (review_public_id: string, body: BodyOf<'/api/v1/reviews/{review_public_id}', 'patch'>) =>
        api.PATCH('/api/v1/reviews/{review_public_id}', { params: { path: { review_public_id } }, body }).then(data),
      remove: (review_public_id: string) => api.DELETE('/api/v1/reviews/{review_public_id}', { params: { path: { review_public_id } } }),
      mine: list('/api/v1/users/me/reviews'),
    },
  };
}

export type CommerceClient = ReturnType<typeof createCommerceClient>;
export type { DataOf, BodyOf, QueryOf };
