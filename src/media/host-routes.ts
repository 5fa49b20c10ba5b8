import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { mkdir } from 'node:fs/promises';
import { AppError } from '../lib/errors.js';
import { mediaRoot } from './file-store.js';
import { UploadError, UploadedFile, type UploadForm } from './schemas.js';
import { MAX_UPLOAD_BYTES, type MediaService } from './service.js';

/**
 * The local image host, used when no ImageKit account is configured: an
 * upload endpoint speaking ImageKit's upload API, and the stored files at
 * `/media/...`. Registered outside /api/v1, like the health probes.
 */
export const mediaHostRoutes =
  (deps: { media: MediaService; dataDir: string }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { media } = deps;
    await app.register(multipart, {
      limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20, fieldSize: 4096, parts: 25 },
    });

    app.post('/media/api/v1/files/upload', {
      // Authenticated by the signed, single-use token instead of a session.
      config: { access: 'public', csrf: false },
      errorHandler: sendUploadError,
      schema: {
        tags: ['Media'],
        summary: 'Upload an image (local image host, ImageKit upload API)',
        description:
          'multipart/form-data with `file` (binary, at most 5 MB; JPEG, PNG, GIF or WebP, recognised by content), `fileName`, ' +
          'and `token`, `expire`, `signature`, `publicKey`, `folder` from GET /api/v1/uploads/media-auth. ' +
          'Errors are ImageKit-shaped `{ message }`: 400 missing or bad fields or not an image, 403 bad public key or signature, ' +
          'expired, used or foreign token, 413 file too large.',
        response: { 200: UploadedFile, 400: UploadError, 403: UploadError, 413: UploadError, 415: UploadError },
      },
      handler: async (request) => media.acceptUpload(await readUploadForm(request)),
    });

    const root = mediaRoot(deps.dataDir);
    await mkdir(root, { recursive: true });
    await app.register(async (files) => {
      files.addHook('onRoute', (route) => {
        route.config = { ...(route.config ?? {}), access: 'public' };
      });
      await files.register(fastifyStatic, {
        root,
        prefix: '/media/',
        decorateReply: false,
        index: false,
        dotfiles: 'ignore',
        // File names are random and never reused, so the files never change.
        maxAge: '365d',
        immutable: true,
        setHeaders: (reply) => {
          reply.header('x-content-type-options', 'nosniff');
          // Storefronts on other origins embed these images.
          reply.header('cross-origin-resource-policy', 'cross-origin');
        },
      });
    });
  };

/** Reads every part; the file is buffered (the 5 MB limit bounds it). A repeated field is an error. */
async function readUploadForm(request: FastifyRequest): Promise<UploadForm> {
  if (!request.isMultipart()) throw new AppError(400, 'VALIDATION_ERROR', 'Send the upload as multipart/form-data');
  const fields: Record<string, string> = {};
  let file: Buffer | null = null;
  for await (const part of request.parts()) {
    if (part.fieldname in fields || (part.fieldname === 'file' && file)) {
      throw new AppError(400, 'VALIDATION_ERROR', `The ${part.fieldname} parameter is repeated`);
    }
    if (part.type === 'file') {
      if (part.fieldname !== 'file') throw new AppError(400, 'VALIDATION_ERROR', `Unexpected file part ${part.fieldname}`);
      file = await part.toBuffer();
    } else {
      if (part.valueTruncated) throw new AppError(400, 'VALIDATION_ERROR', `The ${part.fieldname} parameter is too long`);
      if (part.fieldname === 'file') throw new AppError(400, 'VALIDATION_ERROR', 'Send file as a binary file part; base64 and URLs are not accepted');
      fields[part.fieldname] = String(part.value);
    }
  }
  return { fields, file };
}

/** ImageKit answers errors with a status and `{ message }`, not the API's envelope. */
function sendUploadError(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  const status = error instanceof AppError ? error.status : (error.statusCode ?? 500);
  if (status >= 500) {
    request.log.error({ err: error }, 'upload failed');
    return reply.code(500).send({ message: 'The upload failed on our side; try again' });
  }
  const message = error.code === 'FST_REQ_FILE_TOO_LARGE' ? 'The file is larger than 5 MB' : error.message;
  return reply.code(status).send({ message });
}
