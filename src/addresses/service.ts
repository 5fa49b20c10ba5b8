import type { Db, Trx } from '../db/database.js';
import { runIdempotent, type IdempotencyRequest, type IdempotentResult } from '../idempotency/idempotency.js';
import { lockAccount } from '../identity/repository.js';
import type { Clock } from '../lib/clock.js';
import type { AuthedCtx } from '../lib/context.js';
import { addressBookFull, defaultAddressRequired, notFound } from '../lib/errors.js';
import { isPublicId, newPublicId } from '../lib/ids.js';
import { toPage, type PageRequest } from '../lib/pagination.js';
import {
  clearDefault,
  countActiveAddresses,
  findActiveAddress,
  insertAddress,
  listActiveAddresses,
  promoteOldest,
  updateAddress,
  type DefaultFlag,
} from './repository.js';
import { toAddress, type Address, type AddressCreate, type AddressPatch } from './schemas.js';
import { transaction } from '../db/transaction.js';

const FLAGS: readonly DefaultFlag[] = ['is_default_shipping', 'is_default_billing'];

/**
 * The address book. Invariant: an account with any active address has exactly
 * one default shipping and one default billing address. Every write locks the
 * account's book first, so the rules below see a stable book; partial unique
 * indexes back them up in the database.
 */
export function createAddressService({ db, clock, maxAddresses }: { db: Db; clock: Clock; maxAddresses: number }) {
  /** Should the lock ever be bypassed, the one-default indexes refuse the write (409 CONFLICT, src/lib/db-errors.ts). */
  function inBook<T>(ctx: AuthedCtx, work: (trx: Trx) => Promise<T>): Promise<T> {
    return transaction(db, (trx) => lockedBook(trx, ctx, work));
  }

  async function lockedBook<T>(trx: Trx, ctx: AuthedCtx, work: (trx: Trx) => Promise<T>): Promise<T> {
    // Default flags are decided by reading the book: two writers of one account must not read it at once.
    await lockAccount(trx, ctx.actor.userId);
    return work(trx);
  }

  async function ownedOrNotFound(trx: Trx, ctx: AuthedCtx, publicId: string) {
    const address = isPublicId('adr', publicId) ? await findActiveAddress(trx, ctx.actor.userId, publicId) : undefined;
    if (!address) throw notFound('Address');
    return address;
  }

  return {
    async list(ctx: AuthedCtx, page: PageRequest) {
      const rows = await listActiveAddresses(db, ctx.actor.userId, page);
      return toPage(rows, page, () => countActiveAddresses(db, ctx.actor.userId), toAddress);
    },

    async get(ctx: AuthedCtx, publicId: string): Promise<Address> {
      const address = isPublicId('adr', publicId) ? await findActiveAddress(db, ctx.actor.userId, publicId) : undefined;
      if (!address) throw notFound('Address');
      return toAddress(address);
    },

    /** Adds once per Idempotency-Key: its key is claimed before the book is locked, as every keyed write claims first. */
    async create(ctx: AuthedCtx, input: AddressCreate, idempotency: IdempotencyRequest | null = null): Promise<IdempotentResult<Address>> {
      return runIdempotent(db, ctx.actor.userId, idempotency, 201, clock.now(), (trx) =>
        lockedBook(trx, ctx, async (trx) => {
          // Counted under the book's lock, so racing creates cannot overshoot the cap.
          const count = await countActiveAddresses(trx, ctx.actor.userId);
          if (count >= maxAddresses) {
            throw addressBookFull(maxAddresses, count);
          }
          const first = count === 0;
          const wanted = {
            is_default_shipping: first || input.is_default_shipping === true,
            is_default_billing: first || input.is_default_billing === true,
          };
          for (const flag of FLAGS) if (wanted[flag] && !first) await clearDefault(trx, ctx.actor.userId, flag, clock.now());
          const row = await insertAddress(trx, {
            public_id: newPublicId('adr'),
            user_id: ctx.actor.userId,
            recipient_name: input.recipient_name,
            phone_number: input.phone_number,
            label: input.label ?? null,
            country: input.country,
            state: input.state,
            city: input.city,
            address_1: input.address_1,
            address_2: input.address_2 ?? null,
            zip_code: input.zip_code ?? null,
            ...wanted,
          });
          return toAddress(row);
        }),
      );
    },

    async update(ctx: AuthedCtx, publicId: string, patch: AddressPatch): Promise<Address> {
      return inBook(ctx, async (trx) => {
        const address = await ownedOrNotFound(trx, ctx, publicId);
        for (const flag of FLAGS) {
          if (patch[flag] === false && address[flag]) {
            throw defaultAddressRequired(flag);
          }
          if (patch[flag] === true && !address[flag]) await clearDefault(trx, ctx.actor.userId, flag, clock.now());
        }
        const { is_default_shipping, is_default_billing, ...fields } = patch;
        const row = await updateAddress(
          trx,
          address.id,
          { ...fields, ...(is_default_shipping ? { is_default_shipping } : {}), ...(is_default_billing ? { is_default_billing } : {}) },
          clock.now(),
        );
        return toAddress(row);
      });
    },

    /** Soft delete; a default it held passes to the oldest remaining address. */
    async remove(ctx: AuthedCtx, publicId: string): Promise<void> {
      await inBook(ctx, async (trx) => {
        const address = await ownedOrNotFound(trx, ctx, publicId);
        const now = clock.now();
        await updateAddress(trx, address.id, { deleted_at: now, is_default_shipping: false, is_default_billing: false }, now);
        for (const flag of FLAGS) if (address[flag]) await promoteOldest(trx, ctx.actor.userId, flag, now);
      });
    },
  };
}

export type AddressService = ReturnType<typeof createAddressService>;
