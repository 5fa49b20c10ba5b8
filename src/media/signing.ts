import { createHmac, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';

/** The keys upload credentials are signed with: ImageKit's when configured, else the local host's own. */
export interface SigningKeys {
  publicKey: string;
  privateKey: string;
}

/** The local image host has no account; its public key is a fixed name clients echo back. */
export const LOCAL_PUBLIC_KEY = 'public_local';
export const IMAGEKIT_UPLOAD_ENDPOINT = 'https://upload.imagekit.io/api/v1/files/upload';

/** ImageKit's client-side upload signature: hex(HMAC-SHA1(privateKey, token + expire)). */
export const signUpload = (privateKey: string, token: string, expire: number | string): string =>
  createHmac('sha1', privateKey).update(`${token}${expire}`).digest('hex');

/**
 * Returns a loader of the signing keys. The local private key lives in
 * `{dataDir}/media.key` (mode 0600) so that it survives restarts and is shared
 * by every instance on the same data directory; it is created on first use.
 */
export function signingKeys(config: Pick<Config, 'imagekit' | 'dataDir'>): () => Promise<SigningKeys> {
  const { imagekit } = config;
  if (imagekit) {
    const keys = { publicKey: imagekit.publicKey, privateKey: imagekit.privateKey };
    return async () => keys;
  }
  let loading: Promise<SigningKeys> | null = null;
  return () => {
    loading ??= loadOrCreateKey(path.join(config.dataDir, 'media.key')).then(
      (privateKey) => ({ publicKey: LOCAL_PUBLIC_KEY, privateKey }),
      (error: unknown) => {
        loading = null; // a transient failure (disk full) must not stick
        throw error;
      },
    );
    return loading;
  };
}

const isCode = (error: unknown, code: string) => (error as NodeJS.ErrnoException)?.code === code;

async function readKey(file: string): Promise<string> {
  const key = (await readFile(file, 'utf8')).trim();
  if (key.length < 32) throw new Error(`${file} holds no usable media signing key; delete it to have a new one made`);
  return key;
}

async function loadOrCreateKey(file: string): Promise<string> {
  try {
    return await readKey(file);
  } catch (error) {
    if (!isCode(error, 'ENOENT')) throw error;
  }
  await mkdir(path.dirname(file), { recursive: true });
  // Written whole under a temporary name, then linked into place: link() fails when the
  // file exists, so concurrent first uses (even across processes) all end up with one key.
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, file);
  } catch (error) {
    if (!isCode(error, 'EEXIST')) throw error;
  } finally {
    await unlink(temporary);
  }
  return readKey(file);
}
