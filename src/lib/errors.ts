/**
 * The one error type of the service. Expected failures carry a stable code;
 * the status comes from the code (src/lib/error-codes.ts), so the two can
 * never disagree, and the error handler turns them into the envelope.
 *
 * Every code a service raises has exactly one factory below (named after
 * the code), so each refusal reads the same wherever it is raised. Nothing
 * outside this file writes `new AppError(...)` (eslint.config.js).
 */
import { ERROR_CODES, type ErrorCode } from './error-codes.js';

export interface ErrorDetail {
  field: string;
  message: string;
  [extra: string]: unknown;
}

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: readonly ErrorDetail[],
    /** Extra response headers, such as `Retry-After`. */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_CODES[code].status;
  }
}

// 400

export const validationError = (message: string, details?: ErrorDetail[]) => new AppError('VALIDATION_ERROR', message, details);

export const invalidPassword = (field: 'password' | 'current_password') =>
  new AppError('INVALID_PASSWORD', field === 'current_password' ? 'The current password is incorrect' : 'The password is incorrect');

/** `facts` go with the detail for a client to say the reason its own way (a minimum in its money format). */
export const invalidCoupon = (why: string, facts: Record<string, string> = {}) =>
  new AppError('INVALID_COUPON', `This coupon cannot be used: ${why}`, [{ field: 'coupon_code', message: why, ...facts }]);

export const invalidImageUrl = (field: string, message: string) =>
  new AppError('INVALID_IMAGE_URL', "Image URLs must be ones the store's image host returned for your uploads", [{ field, message }]);

export const stockRuleViolation = (message: string) => new AppError('STOCK_RULE_VIOLATION', message);

// 401

export const unauthenticated = (message = 'Authentication required') => new AppError('UNAUTHENTICATED', message);

export const invalidCredentials = () => new AppError('INVALID_CREDENTIALS', 'Email or password is incorrect');

// 403

export const forbidden = (message = 'You do not have access to this resource') => new AppError('FORBIDDEN', message);

export const csrfTokenInvalid = () =>
  new AppError('CSRF_TOKEN_INVALID', 'Missing or invalid x-csrf-token header; fetch one from GET /auth/csrf-token');

// 404

export const notFound = (what = 'Resource') => new AppError('NOT_FOUND', `${what} not found`);

// 409

/** CONFLICT: a concurrent change got there first (retrying is the answer). */
export const concurrentChange = (message: string) => new AppError('CONFLICT', message);

export const emailTaken = (message = 'Another account already uses this email address', details?: readonly ErrorDetail[]) =>
  new AppError('EMAIL_TAKEN', message, details);

export const alreadyVerified = () => new AppError('ALREADY_VERIFIED', 'This email address is already verified');

export const addressBookFull = (limit: number, count: number) =>
  new AppError('ADDRESS_BOOK_FULL', `An address book holds at most ${limit} addresses; delete one to add another`, [
    { field: 'address_book', message: `holds ${count} of at most ${limit} addresses`, limit },
  ]);

export const cartFull = (limit: number, count: number) =>
  new AppError('CART_FULL', `A cart holds at most ${limit} lines; check out or remove one to add another product`, [
    { field: 'cart', message: `holds ${count} of at most ${limit} lines`, limit },
  ]);

export const defaultAddressRequired = (flag: 'is_default_shipping' | 'is_default_billing') =>
  new AppError(
    'DEFAULT_ADDRESS_REQUIRED',
    `This address is the default ${flag === 'is_default_shipping' ? 'shipping' : 'billing'} address; make another address the default instead`,
    [{ field: flag, message: 'cannot be unset on the address that holds it' }],
  );

export const slugTaken = (what: 'product' | 'category') => new AppError('SLUG_TAKEN', `Another ${what} already uses this slug`);

export const skuTaken = (field?: string) =>
  new AppError(
    'SKU_TAKEN',
    'Another variant already uses this SKU',
    field ? [{ field, message: 'is used by another variant' }] : undefined,
  );

/** Two variants of one product a shopper could not tell apart: the same option values. */
export const variantOptionsTaken = (sku: string, field = 'options') =>
  new AppError('VARIANT_OPTIONS_TAKEN', `Variant ${sku} of this product already has these option values`, [
    { field, message: `the same as variant ${sku}: change a value, or edit that variant` },
  ]);

export const codeTaken = () => new AppError('CODE_TAKEN', 'Another coupon already uses this code');

export const inventoryExists = () => new AppError('INVENTORY_EXISTS', 'This variant already has an inventory record');

export const reservationHeld = (held: number, reserved: number) =>
  new AppError(
    'RESERVATION_HELD',
    `Open orders hold ${held} of the ${reserved} reserved units; at most ${reserved - held} can be released`,
    [{ field: 'change', message: `open orders hold ${held} units`, held, releasable: Math.max(0, reserved - held) }],
  );

/** `details` names each short variant. */
export const insufficientStock = (message: string, details: ErrorDetail[]) => new AppError('INSUFFICIENT_STOCK', message, details);

/** `details` names each line that is no longer on sale. */
export const variantUnavailable = (details: ErrorDetail[]) =>
  new AppError('VARIANT_UNAVAILABLE', 'Some items in the cart are no longer on sale; remove them and try again', details);

export const cartEmpty = () => new AppError('CART_EMPTY', 'The cart is empty');

/** The order would cost `total`, more than the `expected` total the buyer was shown. */
export const totalChanged = (expected: string, total: string) =>
  new AppError('TOTAL_CHANGED', `The order now costs ${total}, more than the ${expected} expected; show the buyer the new total`, [
    { field: 'expected_total', message: `the order now costs ${total}`, expected_total: expected, total },
  ]);

/** Used up overall, or (`byAccount`) by this account as often as the coupon allows. */
export const couponExhausted = (byAccount: boolean) =>
  new AppError('COUPON_EXHAUSTED', byAccount ? 'You have used this coupon as many times as it allows' : 'This coupon has been used up');

export const invalidTransition = (from: string, to: string, allowed: readonly string[]) =>
  new AppError(
    'INVALID_TRANSITION',
    `An order that is ${from} cannot become ${to}` + (allowed.length > 0 ? `; it can become ${allowed.join(' or ')}` : ''),
  );

export const idempotencyKeyReused = () =>
  new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request');

export const lastSuperAdmin = () => new AppError('LAST_SUPER_ADMIN', 'The last SUPER_ADMIN cannot be demoted');

export const emailNotVerified = () =>
  new AppError(
    'EMAIL_NOT_VERIFIED',
    'This account has not verified its email address: a staff role waits until it has (anyone can register an address they do not own)',
    [{ field: 'role', message: 'needs a verified email address' }],
  );

export const alreadyReviewed = () =>
  new AppError('ALREADY_REVIEWED', 'You have already reviewed this product; edit or delete that review instead');

// 410

export const tokenExpired = () => new AppError('TOKEN_EXPIRED', 'This link has expired or was already used; ask for a new one');

// 417

export const expectationFailed = () =>
  new AppError('EXPECTATION_FAILED', 'The Expect header can only be 100-continue', [{ field: 'expect', message: 'is not 100-continue' }]);

// 413, 415

export const payloadTooLarge = (message: string) => new AppError('PAYLOAD_TOO_LARGE', message);

export const unsupportedMediaType = (message: string) => new AppError('UNSUPPORTED_MEDIA_TYPE', message);

// 429

export const rateLimited = (retryAfterSeconds: number) =>
  new AppError('RATE_LIMITED', 'Too many requests, try again later', undefined, {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });

// 503

export const shuttingDown = () =>
  new AppError('SERVICE_UNAVAILABLE', 'This instance is shutting down; retry', undefined, { 'retry-after': '1' });

export const waitingForSchema = () =>
  new AppError('SERVICE_UNAVAILABLE', 'This instance is waiting for the database schema to be migrated; retry', undefined, {
    'retry-after': '5',
  });

/** The built-in image host holds as many uploads as it allows at once (MAX_UPLOADS_IN_FLIGHT). */
export const uploadsBusy = (retryAfterSeconds: number) =>
  new AppError('SERVICE_UNAVAILABLE', 'The image host is receiving as many uploads as it can; retry shortly', undefined, {
    'retry-after': String(retryAfterSeconds),
  });
