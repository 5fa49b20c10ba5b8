import { Type, type Static } from 'typebox';
import { MoneyInput } from '../catalog/schemas.js';
import { PageQuery, SortQuery } from '../lib/pagination.js';
import { Money, Timestamp } from '../lib/schemas.js';

const NullableMoney = Type.Union([MoneyInput, Type.Null()]);
const NullableCount = Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000_000 }), Type.Null()]);
const NullableTime = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export const CouponCreate = Type.Object(
  {
    code: Type.String({
      minLength: 3,
      maxLength: 50,
      pattern: '^[A-Za-z0-9_-]+$',
      description: 'Stored upper-case; matched case-insensitively',
    }),
    discount_type: Type.Union([Type.Literal('PERCENTAGE'), Type.Literal('FIXED_AMOUNT')]),
    discount_value: { ...MoneyInput, description: '> 0; at most 100 for PERCENTAGE' },
    minimum_order_amount: Type.Optional(NullableMoney),
    maximum_discount_amount: Type.Optional(NullableMoney),
    usage_limit: Type.Optional(NullableCount),
    usage_limit_per_user: Type.Optional(NullableCount),
    starts_at: Type.Optional(NullableTime),
    expires_at: Type.Optional(NullableTime),
    is_active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type CouponCreate = Static<typeof CouponCreate>;

export const CouponPatch = Type.Partial(CouponCreate, { additionalProperties: false, minProperties: 1 });
export type CouponPatch = Static<typeof CouponPatch>;

export const Coupon = Type.Object(
  {
    public_id: Type.String(),
    code: Type.String(),
    discount_type: Type.Union([Type.Literal('PERCENTAGE'), Type.Literal('FIXED_AMOUNT')]),
    discount_value: Money,
    minimum_order_amount: Type.Union([Money, Type.Null()]),
    maximum_discount_amount: Type.Union([Money, Type.Null()]),
    usage_limit: Type.Union([Type.Integer(), Type.Null()]),
    usage_limit_per_user: Type.Union([Type.Integer(), Type.Null()]),
    starts_at: Type.Union([Timestamp, Type.Null()]),
    expires_at: Type.Union([Timestamp, Type.Null()]),
    is_active: Type.Boolean(),
    status: Type.Union(
      [Type.Literal('INACTIVE'), Type.Literal('SCHEDULED'), Type.Literal('EXPIRED'), Type.Literal('EXHAUSTED'), Type.Literal('ACTIVE')],
      { description: 'Derived: INACTIVE, EXPIRED, EXHAUSTED, SCHEDULED, else ACTIVE (first that applies)' },
    ),
    times_used: Type.Integer(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Coupon' },
);
export type Coupon = Static<typeof Coupon>;

export const CouponUsage = Type.Object({
  order_public_id: Type.String(),
  order_number: Type.String(),
  user: Type.Object({ public_id: Type.String(), email: Type.String() }),
  discount_amount: Money,
  released: Type.Boolean({ description: 'True when the order was cancelled and the use given back' }),
  created_at: Timestamp,
});

export const COUPON_SORTS = ['created_at', 'code', 'times_used'] as const;
export type CouponSortField = (typeof COUPON_SORTS)[number];

export const CouponListQuery = Type.Object({
  ...PageQuery,
  sort: SortQuery(COUPON_SORTS, '-created_at'),
  search: Type.Optional(Type.String({ maxLength: 50, description: 'Substring of the code' })),
});
export type CouponListQuery = Static<typeof CouponListQuery>;
