import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { replyWithError, sendError } from '../lib/error-handler.js';
import { unsupportedMediaType, validationError } from '../lib/errors.js';
import { NoContent, errorResponses, errorResponsesShaped } from '../lib/schemas.js';
import { UploadError, UploadedFile, UploadFormFields, type UploadForm } from './schemas.js';
import { MAX_UPLOAD_BYTES, type MediaService } from './service.js';
import { IMAGE_TYPES } from './sniff.js';

/**
 * The built-in image host, used when no ImageKit account is configured: an
 * upload endpoint speaking ImageKit's upload API, and the stored files at
 * `/media/...`, read from PostgreSQL so any instance serves any upload.
 * Registered outside /api/v1, like the health probes.
 */
export const mediaHostRoutes =
  (deps: { media: MediaService }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { media } = deps;
    await app.register(multipart, {
      limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20, fieldSize: 4096, parts: 25 },
    });

    app.post('/media/api/v1/files/upload', {
      // Authenticated by the signed, single-use token instead of a session.
      config: { access: 'public', csrf: false, documentedBody: { contentType: 'multipart/form-data', schema: UploadFormFields } },
      // ImageKit clients read `message` at the top level; the envelope's fields sit beside it.
      errorHandler: (error, request, reply) => void replyWithError(error, request, reply, true),
      schema: {
        tags: ['Media'],
        summary: 'Upload an image (built-in image host, ImageKit upload API)',
        description:
          'multipart/form-data with `file` (binary, at most 5 MB; JPEG, PNG, GIF or WebP, recognised by content), `fileName`, ' +
          'and `token`, `expire`, `signature`, `publicKey`, `folder` from GET /api/v1/uploads/media-auth. ' +
          "Errors carry ImageKit's top-level `message` beside the error envelope: 400 missing or bad fields, a malformed form or not an image, " +
          '403 bad public key or signature, expired, used or foreign token, 413 file too large, 429 over the upload limit.',
        response: {
          200: UploadedFile,
          ...errorResponsesShaped(
            UploadError,
            'VALIDATION_ERROR',
            'FORBIDDEN',
            'PAYLOAD_TOO_LARGE',
            'UNSUPPORTED_MEDIA_TYPE',
            'RATE_LIMITED',
          ),
        },
      },
      handler: async (request) => media.acceptUpload(await readUploadForm(request)),
    });

    app.get('/media/*', {
      config: { access: 'public' },
      schema: {
        tags: ['Media'],
        summary: 'An uploaded image (built-in image host)',
        // Bounded by the router's parameter limit; a longer path than any stored one is simply not found.
        params: Type.Object({ '*': Type.String() }),
        response: {
          200: {
            description: 'The image bytes, with its type',
            content: Object.fromEntries(
              IMAGE_TYPES.map((type) => [type, { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) }]),
            ),
          },
          304: { ...NoContent, description: 'Not modified (If-None-Match)' },
          ...errorResponses('NOT_FOUND'),
        },
      },
      handler: async (request, reply) => {
        const path = `/${request.params['*']}`;
        const file = path.length <= MAX_MEDIA_PATH ? await media.file(path) : null;
        if (!file) return sendError(reply, 404, 'NOT_FOUND', 'No such file');
        // File names are random and never reused, so a file never changes: cache it for good.
        const etag = `"${path.slice(path.lastIndexOf('/') + 1)}"`;
        reply
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('etag', etag)
          .header('last-modified', file.created_at.toUTCString())
          .header('x-content-type-options', 'nosniff')
          // Storefronts on other origins embed these images.
          .header('cross-origin-resource-policy', 'cross-origin');
        if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);
        return reply.type(file.mime_type).send(file.content);
      },
    });
  };

/** No stored path is longer (folder, random name, extension). */
const MAX_MEDIA_PATH = 300;

/** Reads every part; the file is buffered (the 5 MB limit bounds it). A repeated field is an error. */
async function readUploadForm(request: FastifyRequest): Promise<UploadForm> {
  if (!request.isMultipart()) throw unsupportedMediaType('Send the upload as multipart/form-data');
  const fields: Record<string, string> = {};
  let file: Buffer | null = null;
  for await (const part of request.parts()) {
    if (part.fieldname in fields || (part.fieldname === 'file' && file)) {
      throw validationError(`The ${part.fieldname} parameter is repeated`);
    }
    if (part.type === 'file') {
      if (part.fieldname !== 'file') throw validationError(`Unexpected file part ${part.fieldname}`);
      file = await part.toBuffer();
    } else {
      if (part.valueTruncated) throw validationError(`The ${part.fieldname} parameter is too long`);
      if (part.fieldname === 'file') throw validationError('Send file as a binary file part; base64 and URLs are not accepted');
      fields[part.fieldname] = String(part.value);
    }
  }
  return { fields, file };
}
