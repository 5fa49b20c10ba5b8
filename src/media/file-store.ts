import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ImageType } from './sniff.js';

/** Where the local image host keeps files: `{dataDir}/media/<folder>/<id>.<ext>`, served at `/media/...`. */
export const mediaRoot = (dataDir: string): string => path.join(dataDir, 'media');

export interface StoredFile {
  fileId: string;
  name: string;
  /** Path under the URL endpoint, starting with the folder: `/ecommerce/reviews/<id>.png`. */
  filePath: string;
}

/**
 * Stores an image under a fresh random name; the client's file name is never
 * part of the path. `folder` must be one of MEDIA_FOLDERS (checked by the caller).
 */
export async function storeImage(dataDir: string, folder: string, bytes: Buffer, type: ImageType): Promise<StoredFile> {
  const fileId = randomBytes(16).toString('hex');
  const name = `${fileId}.${type.ext}`;
  const directory = path.join(mediaRoot(dataDir), folder);
  await mkdir(directory, { recursive: true });
  await writeFile(path.join(directory, name), bytes, { flag: 'wx', mode: 0o644 });
  return { fileId, name, filePath: `${folder}${name}` };
}
