import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authedCtxOf } from '../auth/guard.js';
import { Ok, errorResponses } from '../lib/schemas.js';
import { MediaAuth, MediaAuthQuery } from './schemas.js';
import type { MediaService } from './service.js';

/** Upload credentials, under /api/v1 (contract section 5). */
export const uploadRoutes =
  (deps: { media: MediaService }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { media } = deps;

    app.get('/uploads/media-auth', {
      schema: {
        tags: ['Uploads'],
        summary: 'Signed, single-use credentials for one image upload',
        description:
          'Fetch just before each upload, then POST the file as multipart/form-data to `uploadEndpoint` with the fields ' +
          '`file`, `fileName`, `token`, `expire`, `signature`, `publicKey` and `folder` (ImageKit upload API). The token is valid ' +
          'for 10 minutes, once, and only for `folder`. Pass the returned `url` as `image_url` in a review. ' +
          '`context=products` needs ADMIN (403 otherwise).',
        querystring: MediaAuthQuery,
        response: { 200: Ok(MediaAuth), ...errorResponses('FORBIDDEN', 'RATE_LIMITED') },
      },
      handler: async (request) => ({
        success: true as const,
        data: await media.issueCredentials(authedCtxOf(request), request.query.context),
      }),
    });
  };
