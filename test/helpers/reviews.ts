import type { RunningApp } from './app.js';
import { API, expectStatus } from './catalog.js';
import type { Client } from './client.js';
import { sellableVariant } from './commerce.js';

/** Shared by the review test files (contract section 10). */

/** A new ACTIVE product with one variant in stock, made by `admin`; returns its public ID. */
export const reviewableProduct = async (admin: Client) => (await sellableVariant(admin)).productId;

export const reviewBody = (productId: string, extra: Record<string, unknown> = {}) => ({
  product_public_id: productId,
  rating: 4,
  title: 'Solid',
  comment: 'Does what it says.',
  ...extra,
});

/** Posts a review that must be accepted (201); returns it. */
export async function postReview(client: Client, productId: string, extra: Record<string, unknown> = {}) {
  return expectStatus(await client.post(`${API}/reviews`, reviewBody(productId, extra)), 201);
}

export const moderate = async (admin: Client, id: string, status: 'APPROVED' | 'REJECTED', note?: string) =>
  expectStatus(await admin.patch(`${API}/admin/reviews/${id}`, { status, ...(note !== undefined ? { moderation_note: note } : {}) }), 200);

/** GET /products/{prd}/reviews as an anonymous visitor. */
export const publicReviews = (t: Pick<RunningApp, 'client'>, productId: string, query = '') =>
  t.client().get(`${API}/products/${productId}/reviews${query}`);
export const publicReviewIds = async (t: Pick<RunningApp, 'client'>, productId: string) =>
  expectStatus(await publicReviews(t, productId), 200).map((r: { public_id: string }) => r.public_id);
export const ratingOf = async (t: Pick<RunningApp, 'client'>, productId: string) =>
  expectStatus(await t.client().get(`${API}/products/${productId}`), 200).rating;
