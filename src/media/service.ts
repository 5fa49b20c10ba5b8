import { randomUUID } from 'node:crypto';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import { hasRole, type AuthedCtx } from '../lib/context.js';
import { AppError, forbidden } from '../lib/errors.js';
import { MEDIA_FOLDERS, mediaUrlEndpoint, type MediaContext } from '../lib/media.js';
import { safeEqual } from '../lib/tokens.js';
import { storeImage } from './file-store.js';
import { consumeUploadToken, findUploadToken, insertUploadToken } from './repository.js';
import type { MediaAuth, UploadedFile, UploadForm } from './schemas.js';
import { IMAGEKIT_UPLOAD_ENDPOINT, signUpload, signingKeys } from './signing.js';
import { sniffImage } from './sniff.js';

export const TOKEN_TTL_SECONDS = 600;
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

const REQUIRED_FIELDS = ['fileName', 'token', 'expire', 'signature', 'publicKey', 'folder'] as const;
const KNOWN_FOLDERS = new Set(Object.values(MEDIA_FOLDERS));

const badRequest = (message: string) => new AppError(400, 'VALIDATION_ERROR', message);
const denied = (message: string) => new AppError(403, 'FORBIDDEN', message);

/**
 * Signed, single-use upload credentials in ImageKit's scheme, and the local
 * image host that honours them when no ImageKit account is configured.
 */
export function createMediaService({ db, config, clock }: { db: Db; config: Pick<Config, 'imagekit' | 'publicBaseUrl' | 'dataDir'>; clock: Clock }) {
  const keys = signingKeys(config);
  const urlEndpoint = mediaUrlEndpoint(config);
  const uploadEndpoint = config.imagekit ? IMAGEKIT_UPLOAD_ENDPOINT : `${urlEndpoint}/api/v1/files/upload`;

  /** Why a token that passed the signature check cannot be used; the consume itself is the real check. */
  async function refusal(token: string, folder: string, now: Date): Promise<AppError> {
    const row = await findUploadToken(db, token);
    if (!row) return denied('The token was not issued by this service');
    if (row.used_at) return denied('The token has already been used; fetch new credentials for each upload');
    if (row.folder !== folder) return denied('The token was issued for another folder');
    if (row.expires_at <= now) return denied('The token has expired; fetch new credentials');
    return denied('The token cannot be used');
  }

  return {
    /** Contract section 5: `products` needs ADMIN+, anything unknown means `reviews`. */
    async issueCredentials(ctx: AuthedCtx, requested: string): Promise<MediaAuth> {
      const context: MediaContext = requested === 'products' ? 'products' : 'reviews';
      if (context === 'products' && !hasRole(ctx.actor.role, 'ADMIN')) throw forbidden('Only admins may upload product images');
      const { publicKey, privateKey } = await keys();
      const token = randomUUID();
      const expire = Math.floor(clock.now().getTime() / 1000) + TOKEN_TTL_SECONDS;
      const folder = MEDIA_FOLDERS[context];
      await insertUploadToken(db, { token, userId: ctx.actor.userId, folder, expiresAt: new Date(expire * 1000) });
      return { token, expire, signature: signUpload(privateKey, token, expire), publicKey, urlEndpoint, folder, uploadEndpoint };
    },

    /** The local host's `POST /media/api/v1/files/upload`: ImageKit's checks, then the file is stored. */
    async acceptUpload(form: UploadForm): Promise<UploadedFile> {
      if (!form.file) throw badRequest('Missing file parameter: send the image as a binary file part named "file"');
      const missing = REQUIRED_FIELDS.find((name) => !form.fields[name]);
      if (missing) throw badRequest(`Missing ${missing} parameter`);
      const { token, expire, signature, publicKey, folder } = form.fields as Record<(typeof REQUIRED_FIELDS)[number], string>;
      if (!/^\d{1,12}$/.test(expire)) throw badRequest('The expire parameter must be a Unix time in seconds');

      const keyPair = await keys();
      if (!safeEqual(publicKey, keyPair.publicKey)) throw denied('Your request contains an invalid publicKey');
      if (!safeEqual(signature, signUpload(keyPair.privateKey, token, expire))) throw denied('Your request contains an invalid signature');
      const now = clock.now();
      if (Number(expire) <= Math.floor(now.getTime() / 1000)) throw denied('The token has expired; fetch new credentials');
      if (!KNOWN_FOLDERS.has(folder)) throw denied('The token was issued for another folder');

      if (form.file.length > MAX_UPLOAD_BYTES) throw new AppError(413, 'PAYLOAD_TOO_LARGE', 'The file is larger than 5 MB');
      const type = sniffImage(form.file);
      if (!type) throw badRequest('The file is not a JPEG, PNG, GIF or WebP image');

      if (!(await consumeUploadToken(db, token, folder, now))) throw await refusal(token, folder, now);
      const stored = await storeImage(config.dataDir, folder, form.file, type);
      return { ...stored, url: `${urlEndpoint}${stored.filePath}`, size: form.file.length, fileType: 'image' };
    },
  };
}

export type MediaService = ReturnType<typeof createMediaService>;
