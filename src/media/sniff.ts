/** The image types the local host accepts, recognised by their first bytes, never by name or declared type. */
export interface ImageType {
  ext: 'jpg' | 'png' | 'gif' | 'webp';
  mime: string;
}

/** What the built-in host serves files as. */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

const startsWith = (bytes: Buffer, prefix: Buffer | string, at = 0) => {
  const expected = typeof prefix === 'string' ? Buffer.from(prefix, 'latin1') : prefix;
  return bytes.length >= at + expected.length && bytes.subarray(at, at + expected.length).equals(expected);
};

export function sniffImage(bytes: Buffer): ImageType | null {
  if (startsWith(bytes, JPEG)) return { ext: 'jpg', mime: 'image/jpeg' };
  if (startsWith(bytes, PNG)) return { ext: 'png', mime: 'image/png' };
  if (startsWith(bytes, 'GIF87a') || startsWith(bytes, 'GIF89a')) return { ext: 'gif', mime: 'image/gif' };
  if (startsWith(bytes, 'RIFF') && startsWith(bytes, 'WEBP', 8)) return { ext: 'webp', mime: 'image/webp' };
  return null;
}
