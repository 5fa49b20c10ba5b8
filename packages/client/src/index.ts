export { createCommerceClient, type CommerceClient, type BodyOf, type DataOf, type QueryOf } from './commerce.js';
export {
  createApi,
  type Api,
  type CommerceClientOptions,
  type ErrorCodeOf,
  type ItemOf,
  type PagedPath,
  type PageMeta,
  type PageOf,
  type CallInit,
  type SuccessBody,
  type components,
  type paths,
} from './client.js';
export { createCookieJar, type CookieStore } from './cookies.js';
export { formatMoney } from './money.js';
export { ApiError, NetworkError, ResponseError, apiErrorOf, type ErrorCode, type ErrorDetail } from './errors.js';
export type { WebhookEvent, WebhookEventOf, WebhookEventType, webhooks } from './webhooks.js';
