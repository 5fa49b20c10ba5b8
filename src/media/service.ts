import { randomBytes, randomUUID } from 'node:crypto';
import type { Config } from '../config.js';
import type { Db, Executor } from '../db/database.js';
import { transaction } from '../db/transaction.js';
import type { Clock } from '../lib/clock.js';
import { hasRole, type AuthedCtx } from '../lib/context.js';
import {
  forbidden,
  invalidImageUrl as invalidImage,
  payloadTooLarge,
  validationError as badRequest,
  type AppError,
} from '../lib/errors.js';
import { MEDIA_FOLDERS, mediaPathOf, mediaUrlEndpoint, type MediaContext } from '../lib/media.js';
import type { RateLimiter } from '../rate-limits/limiter.js';
import { safeEqual } from '../lib/tokens.js';
import {
  consumeUploadToken,
  findMediaFile,
  findMediaFileStamp,
  findUploadToken,
  insertMediaFile,
  insertUploadToken,
  lockMediaFiles,
} from './repository.js';
import type { MediaAuth, UploadedFile } from './schemas.js';
import { IMAGEKIT_UPLOAD_ENDPOINT, signUpload, signingKeys } from './signing.js';
import { sniffImage, type ImageType } from './sniff.js';
import { cleanImage } from './clean-image.js';
import { findUserById } from '../identity/repository.js';

export const TOKEN_TTL_SECONDS = 600;
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
/** An upload encoded again may come out larger than it went in (a PNG squeezed by a better encoder): bounded too. */
const MAX_STORED_BYTES = 2 * MAX_UPLOAD_BYTES;

const REQUIRED_FIELDS = ['fileName', 'token', 'expire', 'signature', 'publicKey', 'folder'] as const;
const KNOWN_FOLDERS = new Set(Object.values(MEDIA_FOLDERS));

const denied = forbidden;

/** What an upload's credential fields proved: its token may store one file in `folder` (checked at `now`). */
export interface UploadPermit {
  token: string;
  folder: string;
  now: Date;
}

export interface MediaDeps {
  db: Db;
  config: Pick<Config, 'imagekit' | 'publicBaseUrl' | 'mediaSigningKey'>;
  clock: Clock;
  limiter: RateLimiter;
}

/**
 * Signed, single-use upload credentials in ImageKit's scheme; the built-in
 * image host that honours them when no ImageKit account is configured,
 * keeping files in PostgreSQL (every instance serves every file); and the
 * check that an image URL a review or product names is one it may name.
 */
export function createMediaService({ db, config, clock, limiter }: MediaDeps) {
  const keys = signingKeys(db, config);
  const urlEndpoint = mediaUrlEndpoint(config);
  const uploadEndpoint = config.imagekit ? IMAGEKIT_UPLOAD_ENDPOINT : `${urlEndpoint}/api/v1/files/upload`;

  /** Why a token that passed the signature check cannot be used now (null: it can), from its row. */
  function refusal(row: Awaited<ReturnType<typeof findUploadToken>>, folder: string, now: Date): AppError | null {
    if (!row) return denied('The token was not issued by this service');
    if (row.used_at) return denied('The token has already been used; fetch new credentials for each upload');
    if (row.folder !== folder) return denied('The token was issued for another folder');
    if (row.expires_at <= now) return denied('The token has expired; fetch new credentials');
    return null;
  }

  return {
    /** Contract section 5: `products` needs ADMIN+, anything unknown means `reviews`. */
    async issueCredentials(ctx: AuthedCtx, requested: string): Promise<MediaAuth> {
      const context: MediaContext = requested === 'products' ? 'products' : 'reviews';
      if (context === 'products' && !hasRole(ctx.actor.role, 'ADMIN')) throw forbidden('Only admins may upload product images');
      await limiter.hit(db, 'UPLOAD', `credentials:${ctx.actor.publicId}`, { enforce: true });
      const { publicKey, privateKey } = await keys();
      const token = randomUUID();
      const expire = Math.floor(clock.now().getTime() / 1000) + TOKEN_TTL_SECONDS;
      const folder = MEDIA_FOLDERS[context];
      await insertUploadToken(db, { token, userId: ctx.actor.userId, folder, expiresAt: new Date(expire * 1000) });
      return { token, expire, signature: signUpload(privateKey, token, expire), publicKey, urlEndpoint, folder, uploadEndpoint };
    },

    /**
     * The built-in host's `POST /media/api/v1/files/upload`, first step: ImageKit's checks of the
     * credential fields, made before any byte of the file is read (src/media/upload-form.ts), so a
     * forged, expired or used token costs the service nothing but its form fields.
     */
    async authorizeUpload(fields: Readonly<Record<string, string>>): Promise<UploadPermit> {
      const missing = REQUIRED_FIELDS.find((name) => !fields[name]);
      if (missing) throw badRequest(`Missing ${missing} parameter`, [{ field: missing, message: 'is required, before the file part' }]);
      const { token, expire, signature, publicKey, folder } = fields as Record<(typeof REQUIRED_FIELDS)[number], string>;
      if (!/^\d{1,12}$/.test(expire)) throw badRequest('The expire parameter must be a Unix time in seconds');

      const keyPair = await keys();
      if (!safeEqual(publicKey, keyPair.publicKey)) throw denied('Your request contains an invalid publicKey');
      if (!safeEqual(signature, signUpload(keyPair.privateKey, token, expire))) throw denied('Your request contains an invalid signature');
      const now = clock.now();
      if (Number(expire) <= Math.floor(now.getTime() / 1000)) throw denied('The token has expired; fetch new credentials');
      if (!KNOWN_FOLDERS.has(folder)) throw denied('The token was issued for another folder');
      // A used token is refused here too; two uploads racing with one unused token are settled by the consume in storeUpload.
      const refused = refusal(await findUploadToken(db, token), folder, now);
      if (refused) throw refused;
      return { token, folder, now };
    },

    /** Second step: the file, read whole (at most 5 MB), is checked and stored, and the token used up. */
    async storeUpload(permit: UploadPermit, upload: Buffer): Promise<UploadedFile> {
      if (upload.length > MAX_UPLOAD_BYTES) throw payloadTooLarge('The file is larger than 5 MB');
      const type = imageTypeOf(upload);
      // The picture alone, its metadata (a photo's location) dropped: clean-image.ts.
      const content = await cleanImage(upload, type);
      if (content.length > MAX_STORED_BYTES) throw payloadTooLarge('The image is too large once re-encoded; save it smaller');
      const { token, folder, now } = permit;
      // One transaction: an upload refused by the limit, or lost with its connection, leaves its token unused.
      return transaction(db, async (trx) => {
        const userId = await consumeUploadToken(trx, token, folder, now);
        if (userId === null) throw refusal(await findUploadToken(trx, token), folder, now) ?? denied('The token cannot be used');
        // The token speaks for its owner as they are now: suspended, or no longer staff for the products folder, it is void.
        const owner = await findUserById(trx, userId);
        if (!owner || owner.status !== 'ACTIVE') throw denied('The account that asked for this token can no longer upload');
        if (folder === MEDIA_FOLDERS.products && !hasRole(owner.role, 'ADMIN')) throw forbidden('Only admins may upload product images');
        // Credentials are limited when issued; this bounds the burst tokens from two windows allow.
        await limiter.hit(trx, 'UPLOAD', `files:${userId}`, { enforce: true });
        const fileId = randomBytes(16).toString('hex');
        const name = `${fileId}.${type.ext}`;
        const path = `${folder}${name}`;
        const url = `${urlEndpoint}${path}`;
        await insertMediaFile(trx, { path, url, folder, userId, mimeType: type.mime, content });
        return { fileId, name, url, filePath: path, size: content.length, fileType: 'image' as const };
      });
    },

    /** A stored file of the built-in host, by its path under the URL endpoint. */
    file: (path: string) => findMediaFile(db, path),
    /** When the file at `path` was stored (undefined: none is), without its bytes. */
    fileStamp: (path: string) => findMediaFileStamp(db, path),

    /**
     * The URLs to store for images a review or product names, each checked and
     * normalised, inside the caller's transaction. With the built-in host a
     * review may name only its author's own uploads (`ownerId`), and a product
     * an upload in the products folder when there is one; the stored URL is
     * the one the upload returned. With ImageKit, a URL in the context's
     * folder, normalised. `field(i)` names the i-th URL in an error.
     */
    async resolveImageUrls(
      trx: Executor,
      context: MediaContext,
      urls: readonly string[],
      field: (index: number) => string,
      ownerId?: number,
    ): Promise<string[]> {
      const paths = urls.map((url) => mediaPathOf(config, context, url));
      const bad = paths.findIndex((path) => path === null);
      if (bad >= 0) throw invalidImage(field(bad), `is not in the ${context} media folder`);
      if (config.imagekit) return urls.map((url) => normalisedUrl(url));
      const found = new Map((await lockMediaFiles(trx, paths as string[], MEDIA_FOLDERS[context], ownerId)).map((f) => [f.path, f.url]));
      return paths.map((path, index) => {
        const stored = found.get(path!);
        if (stored) return stored;
        if (ownerId !== undefined) throw invalidImage(field(index), 'is not one of your uploads');
        return `${urlEndpoint}${path}`;
      });
    },
  };
}

/**
 * The image type of a file, by its first bytes; refuses anything else. Also applied to the
 * first bytes of an upload as they arrive, so a file that is not an image is refused unread.
 */
export function imageTypeOf(head: Buffer): ImageType {
  const type = sniffImage(head);
  if (!type) throw badRequest('The file is not a JPEG, PNG, GIF or WebP image');
  return type;
}

/** Bytes `imageTypeOf` needs to recognise every type it knows (WebP names itself at bytes 8-11). */
export const IMAGE_HEAD_BYTES = 12;

const normalisedUrl = (url: string): string => {
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
};

export type MediaService = ReturnType<typeof createMediaService>;
