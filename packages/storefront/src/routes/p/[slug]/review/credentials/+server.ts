import { json } from '@sveltejs/kit';
import { ApiError } from '@commerce/client';
import type { RequestHandler } from './$types';

/**
 * Signed, single-use upload credentials for the signed-in shopper, fetched by the review form's
 * script just before it uploads a photo straight to the image host the service names. Without
 * JavaScript the form posts the files to its action instead.
 */
export const GET: RequestHandler = async ({ locals }) => {
  try {
    const { data } = await locals.shop.api.GET('/api/v1/uploads/media-auth', { params: { query: { context: 'reviews' } } });
    return json(data, { headers: { 'cache-control': 'no-store' } });
  } catch (e) {
    if (ApiError.is(e)) return json({ code: e.code }, { status: e.status, headers: { 'cache-control': 'no-store' } });
    return json({ code: 'SERVICE_UNAVAILABLE' }, { status: 503 });
  }
};
