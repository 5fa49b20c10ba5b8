import { Type, type Static } from 'typebox';
import { ErrorEnvelope } from '../lib/schemas.js';

/** Upload credentials (contract section 5) and the local image host's ImageKit-shaped answers. */

export const MediaAuthQuery = Type.Object({
  context: Type.String({
    default: 'reviews',
    maxLength: 100,
    description: '`reviews` (any user) or `products` (ADMIN+); any other value falls back to `reviews`',
  }),
});
export type MediaAuthQuery = Static<typeof MediaAuthQuery>;

export const MediaAuth = Type.Object({
  token: Type.String({ description: 'Single-use UUID v4' }),
  expire: Type.Integer({ description: 'Unix time in seconds at which the token expires (10 minutes after issue)' }),
  signature: Type.String({ description: 'hex(HMAC-SHA1(privateKey, token + expire))' }),
  publicKey: Type.String(),
  urlEndpoint: Type.String({ description: 'Uploaded files are served under this URL, inside `folder`' }),
  folder: Type.String({ examples: ['/ecommerce/reviews/'] }),
  uploadEndpoint: Type.String({ description: 'Where to POST the multipart upload (ImageKit upload API fields)' }),
});
export type MediaAuth = Static<typeof MediaAuth>;

export const UploadedFile = Type.Object({
  fileId: Type.String(),
  name: Type.String(),
  url: Type.String({ description: 'Pass this as `image_url` of a review (or `url` of a product image)' }),
  filePath: Type.String(),
  size: Type.Integer({ description: 'Bytes' }),
  fileType: Type.Literal('image'),
});
export type UploadedFile = Static<typeof UploadedFile>;

/** An upload error: the error envelope, with ImageKit's top-level `message` beside it for ImageKit clients. */
export const UploadError = Type.Object({ message: Type.String(), ...ErrorEnvelope.properties });

/** The multipart form of an upload, for the OpenAPI document (the route reads the parts itself), in the order they are sent. */
/** Longest value of any field of the upload form, in bytes (the parser's limit, so at most as many characters). */
export const UPLOAD_FIELD_BYTES = 4096;
const FormField = (options: { description?: string } = {}) => Type.String({ maxLength: UPLOAD_FIELD_BYTES, ...options });

export const UploadFormFields = Type.Object({
  fileName: FormField(),
  token: FormField(),
  expire: FormField({ description: 'As GET /api/v1/uploads/media-auth gave it' }),
  signature: FormField(),
  publicKey: FormField(),
  folder: FormField(),
  file: Type.String({ format: 'binary', description: 'The image: JPEG, PNG, GIF or WebP, at most 5 MB; the last part, after the fields' }),
});
