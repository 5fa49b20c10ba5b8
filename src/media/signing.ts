import { createHmac, randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { readOrCreateSecret } from './repository.js';

/** The keys upload credentials are signed with: ImageKit's when configured, else the built-in host's own. */
export interface SigningKeys {
  publicKey: string;
  privateKey: string;
}

/** The built-in image host has no account; its public key is a fixed name clients echo back. */
export const LOCAL_PUBLIC_KEY = 'public_local';
export const IMAGEKIT_UPLOAD_ENDPOINT = 'https://upload.imagekit.io/api/v1/files/upload';

/** ImageKit's client-side upload signature: hex(HMAC-SHA1(privateKey, token + expire)). */
export const signUpload = (privateKey: string, token: string, expire: number | string): string =>
  createHmac('sha1', privateKey).update(`${token}${expire}`).digest('hex');

const SECRET_NAME = 'media_signing_key';

/**
 * Returns a loader of the signing keys. The built-in host's private key comes
 * from MEDIA_SIGNING_KEY, or else is generated once into the database, so
 * that every instance signs and checks with the same key and it survives
 * restarts. It is read once per process.
 */
export function signingKeys(db: Db, config: Pick<Config, 'imagekit' | 'mediaSigningKey'>): () => Promise<SigningKeys> {
  const { imagekit, mediaSigningKey } = config;
  if (imagekit) {
    const keys = { publicKey: imagekit.publicKey, privateKey: imagekit.privateKey };
    return async () => keys;
  }
  if (mediaSigningKey) {
    const keys = { publicKey: LOCAL_PUBLIC_KEY, privateKey: mediaSigningKey };
    return async () => keys;
  }
  let loading: Promise<SigningKeys> | null = null;
  return () => {
    loading ??= readOrCreateSecret(db, SECRET_NAME, randomBytes(32).toString('base64url')).then(
      (privateKey) => ({ publicKey: LOCAL_PUBLIC_KEY, privateKey }),
      (error: unknown) => {
        loading = null; // a lost connection must not stick
        throw error;
      },
    );
    return loading;
  };
}
