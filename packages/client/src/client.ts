import createClient, { type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch';
import type { ErrorResponse, HttpMethod, PathsWithMethod, RequiredKeysOf } from 'openapi-typescript-helpers';
import { createCookieJar, type CookieStore } from './cookies.js';
import { ApiError, apiErrorOf, jsonOf, NetworkError, ResponseError, safeJson } from './errors.js';
import type { components, paths } from './generated/openapi.js';
import { createTransport } from './transport.js';

export type { paths, components };

/** Credentials mode of browser fetch. */
export type Credentials = 'include' | 'same-origin' | 'omit';

export interface CommerceClientOptions {
  /**
   * Where the API is: its origin, without `/api/v1` (the paths carry it).
   * In a browser on the same origin, `''` or `location.origin`.
   */
  baseUrl: string;
  /**
   * Cookies outside the browser: a store keeping the session between calls.
   * Default: a fresh in-memory jar when there is no `document` (Node, Bun,
   * Deno, edge), none in a browser (which keeps its own cookies). Pass
   * `createCookieJar(incomingRequest.headers.get('cookie'))` to act as the
   * user of an incoming request, or `null` to send no cookies at all.
   */
  cookies?: CookieStore | null;
  /** Default `'include'`, so a browser sends the session cookie (also to another origin allowed by CORS_ORIGINS). */
  credentials?: Credentials;
  /** A fetch to use instead of the global one (instrumentation, tests, a proxy). */
  fetch?: typeof fetch;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Retries after a network failure, for reads and Idempotency-Keyed writes (default 2). */
  retries?: number;
  /** Milliseconds before the first retry, doubled each time (default 200). */
  retryDelay?: number;
}

type Method = Extract<HttpMethod, 'get' | 'post' | 'put' | 'patch' | 'delete'>;

/** The request options of an operation: `params` (`path`, `query`) and `body`, each required when the operation requires it. */
export type CallInit<P extends keyof paths, M extends keyof paths[P]> = MaybeOptionalInit<paths[P], M>;
/**
 * The init argument, optional when nothing in it is required. It is typed from the path alone, never inferred
 * from the argument (as openapi-fetch does), so TypeScript's excess-property check catches a misspelt optional field.
 */
type InitArgs<I> = RequiredKeysOf<I> extends never ? [init?: I] : [init: I];
type Defined<T> = [T] extends [never] ? undefined : T extends undefined ? undefined : T;

/** The success body of an operation (the envelope `{ success, data, meta? }`; `undefined` for 202 and 204). */
export type SuccessBody<P extends keyof paths, M extends keyof paths[P]> = Defined<
  NonNullable<Extract<FetchResponse<paths[P][M] & Record<string | number, unknown>, object, 'application/json'>, { error?: never }>['data']>
>;

/** The error codes an operation can answer with. */
export type ErrorCodeOf<P extends keyof paths, M extends keyof paths[P]> =
  ErrorResponse<
    paths[P][M] extends { responses: infer R extends Record<string | number, unknown> } ? R : never,
    'application/json'
  > extends infer E
    ? E extends { error: { code: infer C } }
      ? C
      : never
    : never;

export type PageMeta = { page: number; limit: number; total: number; totalPages: number; hasNext: boolean; hasPrev: boolean };

/** A list operation: a GET whose body carries `meta`. */
export type PagedPath = {
  [P in PathsWithMethod<paths, 'get'>]: SuccessBody<P, 'get'> extends { meta: PageMeta } ? P : never;
}[PathsWithMethod<paths, 'get'>];

/** One page of a list: its items and `meta` (page, limit, total, totalPages, hasNext, hasPrev). */
export type PageOf<P extends PagedPath> =
  SuccessBody<P, 'get'> extends { data: infer D; meta: infer Meta } ? { data: D; meta: Meta } : never;
export type ItemOf<P extends PagedPath> = PageOf<P>['data'] extends readonly (infer Item)[] ? Item : never;

/** A typed call resolving to the success body, throwing ApiError on refusal and NetworkError when no answer came. */
type Call<M extends Method> = <P extends PathsWithMethod<paths, M>>(
  path: P,
  ...init: InitArgs<CallInit<P, M>>
) => Promise<SuccessBody<P, M>>;

const browser = () => typeof (globalThis as { document?: unknown }).document !== 'undefined';

/**
 * The low-level client: one typed call per HTTP method, over the paths of
 * the OpenAPI document (`/api/v1/...`), plus pagination and uploads. The
 * storefront helpers (`createCommerceClient`) are built on it.
 */
export function createApi(options: CommerceClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const transport = createTransport({
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    cookies: options.cookies === undefined ? (browser() ? null : createCookieJar()) : options.cookies,
    credentials: options.credentials ?? 'include',
    retries: options.retries ?? 2,
    retryDelay: options.retryDelay ?? 200,
    csrfUrl: `${baseUrl}/api/v1/auth/csrf-token`,
  });
  const raw = createClient<paths>({
    baseUrl,
    headers: options.headers,
    credentials: options.credentials ?? 'include',
    fetch: transport.send,
  });

  const call =
    <M extends Method>(method: M): Call<M> =>
    async (path, ...init) => {
      let result: { data?: unknown; error?: unknown; response: Response };
      try {
        // The body is read as text and parsed below, so that a 2xx answer that is not JSON is a ResponseError.
        const send = raw[method.toUpperCase() as Uppercase<M>] as (path: string, init?: object) => Promise<typeof result>;
        result = await send(path as string, { ...(init[0] as object | undefined), parseAs: 'text' });
      } catch (error) {
        // From the transport: a refused CSRF token (ApiError), a token answer that is not JSON (ResponseError), an abort.
        if (
          error instanceof NetworkError ||
          error instanceof ApiError ||
          error instanceof ResponseError ||
          (error as Error)?.name === 'AbortError'
        )
          throw error;
        // Anything else failed on the way, e.g. the connection dropped while the body was read.
        throw new NetworkError(`${method.toUpperCase()} ${String(path)} failed`, error);
      }
      if (!result.response.ok) throw apiErrorOf(result.response, result.error);
      return jsonOf(result.response, (result.data as string | undefined) ?? '', `${method.toUpperCase()} ${String(path)}`) as never;
    };

  const GET = call('get');
  const transportFetch = options.fetch;

  /** One page of a list: `{ data, meta }`. */
  async function page<P extends PagedPath>(path: P, ...init: InitArgs<CallInit<P, 'get'>>): Promise<PageOf<P>> {
    const body = (await (GET as (path: string, init?: unknown) => Promise<{ data: unknown; meta: PageMeta }>)(path, init[0])) ?? {};
    return { data: body.data, meta: body.meta } as PageOf<P>;
  }

  /** Every page of a list in turn, from `params.query.page` (default 1) until `meta.hasNext` is false. */
  async function* pages<P extends PagedPath>(path: P, ...init: InitArgs<CallInit<P, 'get'>>): AsyncGenerator<PageOf<P>, void, undefined> {
    const base = (init[0] ?? {}) as { params?: { query?: Record<string, unknown> } };
    let number = Number(base.params?.query?.page ?? 1);
    for (;;) {
      const next = { ...base, params: { ...base.params, query: { ...base.params?.query, page: number } } };
      const current = await (page as (path: string, init: unknown) => Promise<{ data: unknown; meta: PageMeta }>)(path, next);
      yield current as PageOf<P>;
      if (!current.meta.hasNext) return;
      number += 1;
    }
  }

  /** Every item of a list, page after page. */
  async function* items<P extends PagedPath>(path: P, ...init: InitArgs<CallInit<P, 'get'>>): AsyncGenerator<ItemOf<P>, void, undefined> {
    for await (const current of (pages as (path: string, init: unknown) => AsyncGenerator<{ data: unknown[] }>)(path, init[0])) {
      yield* current.data as ItemOf<P>[];
    }
  }

  type UploadCredentials = NonNullable<SuccessBody<'/api/v1/uploads/media-auth', 'get'>>['data'];
  type Uploaded = NonNullable<SuccessBody<'/media/api/v1/files/upload', 'post'>>;

  /**
   * Uploads an image to whichever host the service names (ImageKit, or the
   * service itself): fetches single-use credentials, then posts the file.
   * Resolves to the upload; put its `url` in a review's images (or a product's).
   */
  async function upload(file: Blob, options: { context?: 'reviews' | 'products'; fileName?: string } = {}): Promise<Uploaded> {
    const credentials: UploadCredentials = (
      await GET('/api/v1/uploads/media-auth', { params: { query: { context: options.context ?? 'reviews' } } })
    ).data;
    const form = new FormData();
    form.append('fileName', options.fileName ?? ((file as File).name || 'upload'));
    for (const field of ['token', 'signature', 'publicKey', 'folder'] as const) form.append(field, credentials[field]);
    form.append('expire', String(credentials.expire));
    // The file goes last: the built-in host checks the credentials before it reads a byte of the file.
    form.append('file', file, options.fileName ?? (file as File).name ?? 'upload');
    let response: Response;
    let text: string;
    try {
      // Signed by the token, not the session: no cookies go to the image host.
      response = await (transportFetch ?? globalThis.fetch)(credentials.uploadEndpoint, {
        method: 'POST',
        body: form,
        credentials: 'omit',
      });
      text = await response.text();
    } catch (error) {
      throw new NetworkError('The upload did not reach the image host', error);
    }
    if (!response.ok) throw apiErrorOf(response, safeJson(text));
    return jsonOf(response, text, `POST ${credentials.uploadEndpoint}`) as Uploaded;
  }
  return {
    GET,
    POST: call('post'),
    PUT: call('put'),
    PATCH: call('patch'),
    DELETE: call('delete'),
    page,
    pages,
    items,
    upload,
    /** The CSRF token for the current session (fetched if needed); writes through this client send it themselves. */
    csrfToken: transport.csrfToken,
    /** Forgets the CSRF token, e.g. after the session changed behind the client's back. */
    resetCsrf: transport.resetCsrf,
    /** The underlying openapi-fetch client, for what the helpers above do not cover (its middleware, parseAs). */
    raw,
  };
}

export type Api = ReturnType<typeof createApi>;
