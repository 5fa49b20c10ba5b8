/**
 * Every error code the service answers with, its HTTP status and what it
 * means. AppError takes only these codes, the OpenAPI document lists each
 * operation's possible codes from them, and the client's types come from the
 * document: a new code is added here or nothing compiles.
 */
export const ERROR_CODES = {
  VALIDATION_ERROR: { status: 400, description: 'The request is invalid; `details` names each field' },
  INVALID_JSON: { status: 400, description: 'The body is not valid JSON' },
  INVALID_PASSWORD: { status: 400, description: 'The password (or current password) is incorrect' },
  INVALID_COUPON: { status: 400, description: 'The coupon cannot be used for this order' },
  INVALID_IMAGE_URL: { status: 400, description: "An image URL is not one the store's image host returned" },
  STOCK_RULE_VIOLATION: { status: 400, description: 'The stock change would break a stock rule' },
  VARIANT_UNAVAILABLE: { status: 400, description: 'A cart item is no longer on sale' },
  UNAUTHENTICATED: { status: 401, description: 'No valid session' },
  INVALID_CREDENTIALS: { status: 401, description: 'Email or password is incorrect' },
  FORBIDDEN: { status: 403, description: 'The session may not do this' },
  CSRF_TOKEN_INVALID: { status: 403, description: 'Missing or stale x-csrf-token; fetch one from GET /auth/csrf-token' },
  NOT_FOUND: { status: 404, description: 'No such resource (or not yours)' },
  METHOD_NOT_ALLOWED: { status: 405, description: 'The path takes other methods (see Allow)' },
  REQUEST_TIMEOUT: { status: 408, description: 'The request took too long to arrive' },
  CONFLICT: { status: 409, description: 'A concurrent change got there first; retry' },
  EMAIL_TAKEN: { status: 409, description: 'Another account uses this email address' },
  ALREADY_VERIFIED: { status: 409, description: 'The email address is already verified' },
  ADDRESS_BOOK_FULL: { status: 409, description: 'The address book is full' },
  DEFAULT_ADDRESS_REQUIRED: { status: 409, description: 'A default address cannot stop being the default this way' },
  SLUG_TAKEN: { status: 409, description: 'Another product or category uses this slug' },
  SKU_TAKEN: { status: 409, description: 'Another variant uses this SKU' },
  VARIANT_OPTIONS_TAKEN: { status: 409, description: 'Another variant of the product has the same option values' },
  CODE_TAKEN: { status: 409, description: 'Another coupon uses this code' },
  INVENTORY_EXISTS: { status: 409, description: 'The variant already has an inventory record' },
  RESERVATION_HELD: { status: 409, description: 'Open orders hold the reserved units this release would free' },
  INSUFFICIENT_STOCK: { status: 409, description: 'Not enough stock; `details` names each short variant' },
  CART_EMPTY: { status: 409, description: 'The cart is empty' },
  CART_FULL: { status: 409, description: 'The cart holds MAX_CART_LINES lines already, none of them the variant added' },
  TOTAL_CHANGED: { status: 409, description: 'The order would cost more than the expected_total sent' },
  COUPON_EXHAUSTED: { status: 409, description: 'The coupon is used up (overall or for this account)' },
  INVALID_TRANSITION: { status: 409, description: 'The order cannot move to that status from its current one' },
  IDEMPOTENCY_KEY_REUSED: { status: 409, description: 'The Idempotency-Key was used with a different request' },
  LAST_SUPER_ADMIN: { status: 409, description: 'The last SUPER_ADMIN cannot be demoted' },
  EMAIL_NOT_VERIFIED: {
    status: 409,
    description: 'The account has not verified its email address, so it cannot be given a staff role yet',
  },
  ALREADY_REVIEWED: { status: 409, description: 'The account already reviewed this product' },
  TOKEN_EXPIRED: { status: 410, description: 'The link expired or was already used' },
  EXPECTATION_FAILED: { status: 417, description: 'The Expect header asks for something other than 100-continue' },
  PAYLOAD_TOO_LARGE: { status: 413, description: 'The body, file or headers are too large (413, or 431 for headers)' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, description: 'The Content-Type is not one the route takes' },
  RATE_LIMITED: { status: 429, description: 'Too many requests; see Retry-After' },
  INTERNAL_ERROR: { status: 500, description: 'Unexpected; quote the request_id' },
  NOT_READY: { status: 503, description: 'The database is not reachable, or its schema is behind this version (the message says which)' },
  CONSOLE_NOT_BUILT: { status: 503, description: 'The admin console has not been built (npm run build:console)' },
  STOREFRONT_NOT_BUILT: { status: 503, description: 'The storefront has not been built (npm run build:storefront)' },
  SERVICE_UNAVAILABLE: {
    status: 503,
    description:
      'The database connection was lost or could not be made, or the instance is shutting down or waiting for its schema to be migrated; retry after Retry-After (writes with the same Idempotency-Key)',
  },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ALL_ERROR_CODES = Object.keys(ERROR_CODES) as ErrorCode[];

/** The component name of one code's error envelope in the OpenAPI document. */
export const errorSchemaId = (code: ErrorCode) => `Error_${code}`;
