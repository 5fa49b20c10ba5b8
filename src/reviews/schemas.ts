import { Type, type Static } from 'typebox';
import { BulkIds } from '../lib/bulk.js';
import { PageQuery, SortQuery } from '../lib/pagination.js';
import { multiline } from '../lib/text.js';
import { LongText, PageMeta, PublicIdRef, RequiredText, Timestamp } from '../lib/schemas.js';

/** Review shapes (contract section 10). */

export const ReviewStatus = Type.Union([Type.Literal('PENDING'), Type.Literal('APPROVED'), Type.Literal('REJECTED')]);

export const ReviewImageInput = Type.Object(
  {
    image_url: Type.String({
      maxLength: 2048,
      description: 'The `url` the image host returned; must lie under the media endpoint in /ecommerce/reviews/',
    }),
    alt_text: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type ReviewImageInput = Static<typeof ReviewImageInput>;

const reviewFields = {
  rating: Type.Integer({ minimum: 1, maximum: 5 }),
  title: RequiredText(200),
  comment: RequiredText(5000, multiline),
  images: Type.Optional(Type.Array(ReviewImageInput, { maxItems: 5, description: 'At most 5; on update, replaces the whole set' })),
};

export const ReviewCreate = Type.Object(
  { product_public_id: PublicIdRef('prd', 'prd_ ID of an ACTIVE product'), ...reviewFields },
  { additionalProperties: false },
);
export type ReviewCreate = Static<typeof ReviewCreate>;

export const ReviewPatch = Type.Partial(Type.Object(reviewFields), { additionalProperties: false, minProperties: 1 });
export type ReviewPatch = Static<typeof ReviewPatch>;

export const ReviewModeration = Type.Object(
  {
    status: Type.Union([Type.Literal('APPROVED'), Type.Literal('REJECTED')]),
    moderation_note: Type.Optional(Type.Union([LongText(1000), Type.Null()], { description: 'Internal; replaces the previous note' })),
  },
  { additionalProperties: false },
);
export type ReviewModeration = Static<typeof ReviewModeration>;

export const BulkModeration = Type.Object(
  { review_public_ids: BulkIds('rev'), ...ReviewModeration.properties },
  { additionalProperties: false },
);

const reviewProperties = {
  public_id: Type.String(),
  product_public_id: Type.String(),
  author: Type.Object({ first_name: Type.String(), last_initial: Type.String() }),
  rating: Type.Integer({ minimum: 1, maximum: 5 }),
  title: Type.String(),
  comment: Type.String(),
  images: Type.Array(Type.Object({ image_url: Type.String(), alt_text: Type.Union([Type.String(), Type.Null()]) })),
  status: ReviewStatus,
  verified_purchase: Type.Boolean({ description: 'The author has an order of this product that was shipped or fulfilled' }),
  created_at: Timestamp,
  updated_at: { ...Timestamp, description: 'Last change by the author (moderation does not change it)' },
};

export const Review = Type.Object(reviewProperties, { $id: 'Review' });
export type Review = Static<typeof Review>;

export const AdminReview = Type.Object(
  {
    ...reviewProperties,
    author_public_id: Type.String(),
    moderation_note: Type.Union([Type.String(), Type.Null()], { description: 'Of the latest decision' }),
    moderated_at: Type.Union([Timestamp, Type.Null()], {
      description: 'Of the latest decision; an edit since then made the review PENDING again',
    }),
  },
  { $id: 'AdminReview' },
);
export type AdminReview = Static<typeof AdminReview>;

export const RatingSummary = Type.Object({
  average: Type.Number({ description: 'Mean rating of all approved reviews, two decimals; 0 when there are none' }),
  count: Type.Integer(),
  distribution: Type.Object(
    { 1: Type.Integer(), 2: Type.Integer(), 3: Type.Integer(), 4: Type.Integer(), 5: Type.Integer() },
    { description: 'Approved reviews per star rating' },
  ),
});
export type RatingSummary = Static<typeof RatingSummary>;

export const ProductReviewsPage = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(Review),
  meta: PageMeta,
  summary: RatingSummary,
});

export const REVIEW_SORTS = ['created_at', 'rating'] as const;
export type ReviewSortField = (typeof REVIEW_SORTS)[number];

const RatingFilter = Type.Optional(Type.Integer({ minimum: 1, maximum: 5, description: 'Only reviews with this rating' }));

export const ProductReviewsQuery = Type.Object({ ...PageQuery, rating: RatingFilter, sort: SortQuery(REVIEW_SORTS, '-created_at') });
export type ProductReviewsQuery = Static<typeof ProductReviewsQuery>;

export const AdminReviewListQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(ReviewStatus),
  product: Type.Optional(PublicIdRef('prd', 'prd_ ID')),
  rating: RatingFilter,
  sort: SortQuery(REVIEW_SORTS, 'created_at'),
});
export type AdminReviewListQuery = Static<typeof AdminReviewListQuery>;
