import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ifNoneMatch } from '../http-cache/policy.js';
import { replyWithError, sendError } from '../lib/error-handler.js';
import { NoContent, errorResponses, errorResponsesShaped } from '../lib/schemas.js';
import { UploadError, UploadedFile, UploadFormFields } from './schemas.js';
import type { MediaService } from './service.js';
import { IMAGE_TYPES } from './sniff.js';
import { UPLOAD_FORM_LIMITS, discardUnreadBody, receiveUpload, uploadSlots } from './upload-form.js';

/**
 * The built-in image host, used when no ImageKit account is configured: an
 * upload endpoint speaking ImageKit's upload API, and the stored files at
 * `/media/...`, read from PostgreSQL so any instance serves any upload.
 * Registered outside /api/v1, like the health probes.
 */
export const mediaHostRoutes =
  (deps: { media: MediaService; maxUploadsInFlight: number }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { media } = deps;
    const slots = uploadSlots(deps.maxUploadsInFlight);
    await app.register(multipart, { limits: UPLOAD_FORM_LIMITS });

    app.post('/media/api/v1/files/upload', {
      // Authenticated by the signed, single-use token instead of a session.
      config: { access: 'public', csrf: false, documentedBody: { contentType: 'multipart/form-data', schema: UploadFormFields } },
      // ImageKit clients read `message` at the top level; the envelope's fields sit beside it.
      errorHandler: (error, request, reply) => {
        discardUnreadBody(request.raw);
        void replyWithError(error, request, reply, true);
      },
      schema: {
        tags: ['Media'],
        summary: 'Upload an image (built-in image host, ImageKit upload API)',
        description:
          'multipart/form-data with `fileName`, and `token`, `expire`, `signature`, `publicKey`, `folder` from GET /api/v1/uploads/media-auth, ' +
          'then `file` (binary, at most 5 MB; JPEG, PNG, GIF or WebP, recognised by content) as the last part: the fields are checked ' +
          'before any of the file is read. ' +
          "Errors carry ImageKit's top-level `message` beside the error envelope: 400 missing or bad fields (or fields sent after the file), " +
          'a malformed form or not an image, 403 bad public key or signature, expired, used or foreign token, 413 file too large, ' +
          '429 over the upload limit, 503 with Retry-After when the instance is receiving as many uploads as it allows at once.',
        response: {
          200: UploadedFile,
          ...errorResponsesShaped(
            UploadError,
            'VALIDATION_ERROR',
            'FORBIDDEN',
            'PAYLOAD_TOO_LARGE',
            'UNSUPPORTED_MEDIA_TYPE',
            'RATE_LIMITED',
            'SERVICE_UNAVAILABLE',
          ),
        },
      },
      handler: async (request) => receiveUpload(request, media, slots),
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
        if (path.length > MAX_MEDIA_PATH) return sendError(reply, 404, 'NOT_FOUND', 'No such file');
        // File names are random and never reused, so a file never changes: cache it for good, and
        // answer a revalidation from the name and the row's existence, without reading the bytes.
        const etag = `"${path.slice(path.lastIndexOf('/') + 1)}"`;
        const revalidated = ifNoneMatch(request.headers['if-none-match'], etag);
        const file = revalidated ? null : await media.file(path);
        const stored = revalidated ? await media.fileStamp(path) : file;
        if (!stored) return sendError(reply, 404, 'NOT_FOUND', 'No such file');
        reply
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('etag', etag)
          .header('last-modified', stored.created_at.toUTCString())
          .header('x-content-type-options', 'nosniff')
          // Storefronts on other origins embed these images.
          .header('cross-origin-resource-policy', 'cross-origin');
        if (!file) return reply.code(304).send(null);
        return reply.type(file.mime_type).send(file.content);
      },
    });
  };

/** No stored path is longer (folder, random name, extension). */
const MAX_MEDIA_PATH = 300;
