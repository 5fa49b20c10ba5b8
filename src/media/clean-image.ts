import { validationError } from '../lib/errors.js';
import type { ImageType } from './sniff.js';

/**
 * What the built-in image host keeps of an upload: the picture, decoded and encoded again in its
 * own format by sharp (libvips), and nothing else. A phone's photo carries EXIF (the place it was
 * taken, the camera, the owner's name), XMP and comments: served publicly beside a review, they
 * would tell anyone where a customer lives. Encoding drops every such block; the EXIF orientation
 * is applied to the pixels first, so a photo still stands the right way up. Decoding also refuses
 * what only looks like an image (a GIF header before an HTML page) and a few bytes that declare a
 * huge picture, and the stored size is bounded.
 */

/** Most pixels an upload may declare (an 8000 x 5000 photo); more is refused before it is decoded. */
export const MAX_IMAGE_PIXELS = 40_000_000;
/** Longest side kept: larger pictures are scaled down to it (a product page zooms to about half). */
export const MAX_IMAGE_SIDE = 2560;

type Sharp = (typeof import('sharp'))['default'];
let loaded: Promise<Sharp> | undefined;
// Loaded on the first upload: a service whose images go to ImageKit never needs the native library.
const sharpModule = () => (loaded ??= import('sharp').then((module) => module.default));

/** Why sharp cannot be loaded here (its binary missing for this platform), or null when it can. */
export async function imageToolsProblem(): Promise<string | null> {
  try {
    await sharpModule();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

type Pipeline = ReturnType<Sharp>;
/** Each kind is written again as itself: a product's JPEG stays a JPEG, an animated GIF or WebP keeps its frames. */
const ENCODERS: Record<ImageType['ext'], (image: Pipeline) => Pipeline> = {
  jpg: (image) => image.jpeg({ quality: 85 }),
  png: (image) => image.png(),
  webp: (image) => image.webp({ quality: 85 }),
  gif: (image) => image.gif(),
};

export async function cleanImage(content: Buffer, type: ImageType): Promise<Buffer> {
  const sharp = await sharpModule();
  const animated = type.ext === 'gif' || type.ext === 'webp';
  try {
    const image = sharp(content, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error', animated })
      .autoOrient()
      .resize({ width: MAX_IMAGE_SIDE, height: MAX_IMAGE_SIDE, fit: 'inside', withoutEnlargement: true });
    return await ENCODERS[type.ext](image).toBuffer();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/pixel limit/i.test(message))
      throw validationError(`The image is larger than ${MAX_IMAGE_PIXELS / 1_000_000} megapixels`, [
        { field: 'file', message: 'has too many pixels' },
      ]);
    throw validationError('The file could not be read as an image', [{ field: 'file', message: 'is not a readable image' }]);
  }
}
