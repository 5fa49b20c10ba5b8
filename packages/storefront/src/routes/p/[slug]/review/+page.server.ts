import { timingSafeEqual } from 'node:crypto';
import { ApiError } from '@commerce/client';
import { redirect } from '@sveltejs/kit';
import { formFailure, invalid, loading, signInPath } from '$lib/server/errors';
import type { Actions, PageServerLoad } from './$types';
import { formOf } from '$lib/server/form-body';

const MAX_PHOTOS = 5;
const PHOTO_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif']);

/** Writing a review: signed in only; says so when this account has reviewed the product already. */
export const load: PageServerLoad = (event) =>
  loading(event, async () => {
    const { shop } = event.locals;
    if (!(await shop.user())) redirect(303, signInPath(event, 'review'));
    const product = await shop.api.products.bySlug(event.params.slug);
    let existing = null;
    for await (const review of shop.api.items('/api/v1/users/me/reviews', { params: { query: { limit: 100 } } })) {
      if (review.product_public_id === product.public_id) existing = review;
    }
    return {
      product: { public_id: product.public_id, name: product.name, slug: product.slug, image: product.images[0] ?? null },
      existing,
      csrf: await shop.csrf(),
    };
  });

export const actions: Actions = {
  /**
   * With JavaScript the photos were uploaded from the browser already and arrive as `image_url`s;
   * without it they arrive as files, and go to the image host from here, with the shopper's signed credentials.
   */
  default: async (event) => {
    const { shop } = event.locals;
    const form = await formOf(event);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const values = { rating: text('rating'), title: text('title'), comment: text('comment') };
    const rating = Number(values.rating);
    const errors: Record<string, string> = {};
    if (!Number.isInteger(rating) || rating < 1 || rating > 5) errors.rating = 'Choose from 1 to 5 stars.';
    if (!values.title) errors.title = 'Give your review a title.';
    if (!values.comment) errors.comment = 'Tell other shoppers what you think.';
    const files = form.getAll('photos').filter((f): f is File => f instanceof File && f.size > 0);
    const urls = form.getAll('image_url').map(String).filter(Boolean);
    if (files.length + urls.length > MAX_PHOTOS) errors.photos = `Add at most ${MAX_PHOTOS} photos.`;
    if (files.some((f) => !PHOTO_TYPES.has(f.type))) errors.photos = 'Photos must be JPEG, PNG, WebP or GIF images.';
    if (files.some((f) => f.size > 5 * 1024 * 1024)) errors.photos = 'Each photo can be at most 5 MB.';
    if (Object.keys(errors).length > 0) return invalid('Please check the highlighted fields.', errors, values);
    try {
      // Photos sent as files are stored before the review is made: only for the form this session was given,
      // or a forged post that passed the origin check would still store files in the shopper's name.
      if (files.length > 0 && !sameToken(form.get('csrf'), await shop.csrf()))
        return invalid('This form had expired. Please try again.', {}, values, 403);
      const product = await shop.api.products.bySlug(event.params.slug);
      for (const file of files) {
        try {
          urls.push((await shop.api.upload(file, { context: 'reviews', fileName: file.name || 'photo' })).url);
        } catch (e) {
          // The file itself refused (not an image, too large): said at the photos, naming the file.
          if (!ApiError.is(e) || (e.status !== 400 && e.status !== 413)) throw e;
          const why = e.status === 413 ? 'it is larger than 5 MB' : e.message.replace(/^The file/, 'it').replace(/\.?$/, '');
          return invalid('A photo could not be used.', { photos: `“${file.name || 'The photo'}” could not be used: ${why}.` }, values);
        }
      }
      const alt = `Customer photo of ${product.name}`.slice(0, 200);
      const review = await shop.asForm(form.get('csrf')).reviews.create({
        product_public_id: product.public_id,
        rating,
        title: values.title,
        comment: values.comment,
        ...(urls.length > 0 ? { images: urls.map((image_url) => ({ image_url, alt_text: alt })) } : {}),
      });
      return { submitted: review.status };
    } catch (e) {
      if (ApiError.is(e) && e.code === 'FORBIDDEN' && files.length > 0) {
        return invalid('The photo upload was refused. Please try again.', { photos: 'Upload refused: try again.' }, values);
      }
      return formFailure(
        e,
        event,
        values,
        {
          ALREADY_REVIEWED: 'You have reviewed this product already. Your review is in your account.',
          INVALID_IMAGE_URL: 'One of the photos could not be used. Please add it again.',
        },
        { images: 'photos' },
      );
    }
  },
};

/** The token the form carried is this session's (compared in constant time). */
function sameToken(sent: FormDataEntryValue | null, expected: string): boolean {
  if (typeof sent !== 'string') return false;
  const [a, b] = [Buffer.from(sent), Buffer.from(expected)];
  return a.length === b.length && timingSafeEqual(a, b);
}
