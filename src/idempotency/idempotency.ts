import { createHash } from 'node:crypto';
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Trx } from '../db/database.js';
import { idempotencyKeyReused, validationError } from '../lib/errors.js';
import { claimKey, findKey, forgetStaleKey, storeResponse } from './repository.js';
import { transaction } from '../db/transaction.js';

/**
 * `Idempotency-Key` (contract section 1): the same key from the same account
 * with the same request within 24 hours replays the first response; the same
 * key with a different request is 409 IDEMPOTENCY_KEY_REUSED.
 *
 * The key is claimed by an INSERT in the same transaction as the write. A
 * concurrent retry blocks on the primary key until the first commits (then
 * replays) or rolls back (then runs itself). Failures are never stored: a
 * failed request changed nothing, so running it again is safe.
 */
/** The optional header, declared once for every route that honours it (validation and OpenAPI). */
export const IdempotencyHeader = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, description: 'Replays the first response of a retried write for 24 hours' }),
  ),
});

export interface IdempotencyRequest {
  key: string;
  fingerprint: string;
}

/** How long a key replays its first response; the pruner deletes it after that. */
export const KEY_TTL_MS = 24 * 3600 * 1000;

/** Reads the header; `null` when absent. The fingerprint covers method, route, path and body. */
export function idempotencyOf(request: FastifyRequest): IdempotencyRequest | null {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return null;
  if (typeof header !== 'string' || header.length < 1 || header.length > 255) {
    throw validationError('Idempotency-Key must be 1-255 characters', [{ field: 'Idempotency-Key', message: 'must be 1-255 characters' }]);
  }
  const fingerprint = createHash('sha256')
    .update(`${request.method} ${request.url.split('?')[0]}\n${stableJson(request.body ?? null)}`)
    .digest('hex');
  return { key: header, fingerprint };
}

export interface IdempotentResult<T> {
  status: number;
  data: T;
  replayed: boolean;
}

export async function runIdempotent<T>(
  db: Db,
  userId: number,
  request: IdempotencyRequest | null,
  status: number,
  /** The clock's now: keys older than 24 hours from it are forgotten. */
  now: Date,
  work: (trx: Trx) => Promise<T>,
): Promise<IdempotentResult<T>> {
  if (!request) return { status, data: await transaction(db, work), replayed: false };
  return transaction(db, async (trx) => {
    await forgetStaleKey(trx, userId, request.key, new Date(now.getTime() - KEY_TTL_MS));
    if (!(await claimKey(trx, userId, request.key, request.fingerprint, now))) {
      const first = await findKey(trx, userId, request.key);
      if (first.fingerprint !== request.fingerprint) {
        throw idempotencyKeyReused();
      }
      return { status: first.status_code, data: first.response as T, replayed: true };
    }
    const data = await work(trx);
    await storeResponse(trx, userId, request.key, status, data);
    return { status, data, replayed: false };
  });
}

/** Sends an idempotent result in the success envelope, marking replays. */
export function sendIdempotent<T>(reply: FastifyReply, result: IdempotentResult<T>) {
  if (result.replayed) reply.header('idempotent-replayed', 'true');
  return reply.code(result.status).send({ success: true as const, data: result.data });
}

/** JSON with sorted keys, so `{a,b}` and `{b,a}` are the same request. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
