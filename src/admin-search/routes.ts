import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Ok, errorResponses } from '../lib/schemas.js';
import { SearchQuery, SearchResults } from './schemas.js';
import type { AdminSearch } from './service.js';

export const adminSearchRoutes =
  (deps: { search: AdminSearch }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/admin/search', {
      config: { access: 'admin' },
      schema: {
        tags: ['Admin: search'],
        summary: 'Orders, products and accounts matching a text, and the one it names outright',
        querystring: SearchQuery,
        response: { 200: Ok(SearchResults), ...errorResponses() },
      },
      handler: async (request) => ({ success: true as const, data: await deps.search.search(request.query.q) }),
    });
  };
