import { BulkIds } from '../lib/bulk.js';
import { Type, type Static } from 'typebox';
import { InventoryRecord, StockStatus } from '../inventory/schemas.js';
import { PageQuery, SortQuery } from '../lib/pagination.js';
import { LongText, Money, PublicIdRef, RequiredText, Timestamp } from '../lib/schemas.js';

/** Catalog shapes (contract section 6): inputs, public outputs, admin outputs. */

export const Slug = Type.String({
  pattern: '^[a-z0-9]+(-[a-z0-9]+)*$',
  minLength: 1,
  maxLength: 120,
  description: 'Generated from the name when omitted',
});
/** An amount as a request may send it: up to ten whole digits and two places. */
export const MONEY_INPUT_PATTERN = '^\\d{1,10}(\\.\\d{1,2})?$';
export const MoneyInput = Type.String({
  pattern: MONEY_INPUT_PATTERN,
  maxLength: 13,
  description: 'Decimal string, up to two places',
  examples: ['19.99'],
});
const NonBlank = (max: number) => RequiredText(max);

export const ImageInput = Type.Object(
  {
    url: Type.String({ maxLength: 2048, description: 'Must lie under the media endpoint in /ecommerce/products/' }),
    alt_text: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type ImageInput = Static<typeof ImageInput>;
const Images = Type.Array(ImageInput, { maxItems: 20, description: 'Replaces the whole set; order gives position' });

export const Image = Type.Object({ url: Type.String(), alt_text: Type.Union([Type.String(), Type.Null()]), position: Type.Integer() });

// Categories -----------------------------------------------------------------

export const CategoryCreate = Type.Object(
  {
    name: NonBlank(100),
    slug: Type.Optional(Slug),
    description: Type.Optional(Type.Union([LongText(2000), Type.Null()])),
    parent_public_id: Type.Optional(
      Type.Union([PublicIdRef('cat'), Type.Null()], { description: 'cat_ ID of the parent; null for a top-level category' }),
    ),
    position: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000 })),
  },
  { additionalProperties: false },
);
export type CategoryCreate = Static<typeof CategoryCreate>;

export const CategoryPatch = Type.Partial(CategoryCreate, { additionalProperties: false, minProperties: 1 });
export type CategoryPatch = Static<typeof CategoryPatch>;

export const Category = Type.Object(
  {
    public_id: Type.String(),
    name: Type.String(),
    slug: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    parent_public_id: Type.Union([Type.String(), Type.Null()]),
    position: Type.Integer(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Category' },
);
export type Category = Static<typeof Category>;

/** What a storefront shows before any cart exists: the shop's name, its currency and how checkout prices shipping and tax. */
export const StoreSettings = Type.Object(
  {
    name: Type.String(),
    headline: Type.String({ description: "The home page's headline (STORE_HEADLINE)" }),
    introduction: Type.String({ description: 'The sentences under it, describing the shop (STORE_INTRODUCTION)' }),
    currency: Type.String({ description: 'ISO 4217 code of every price' }),
    shipping_flat: { ...Money, description: 'Shipping charged on an order below free_shipping_from' },
    free_shipping_from: { ...Money, description: 'Subtotal (before discounts) from which shipping is free' },
    tax_rate: Type.String({ description: 'Percentage applied to the discounted subtotal, e.g. "8.25"' }),
  },
  { $id: 'StoreSettings' },
);
export type StoreSettings = Static<typeof StoreSettings>;

/** How much of a variant a shopper may buy now: a status for everyone, a count only when few are left. */
export const VariantStock = Type.Object({
  variant_public_id: Type.String(),
  stock_status: StockStatus,
  quantity_left: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
    description: 'Units available, given only when LOW_STOCK (at or below the reorder level), for "only 3 left"; otherwise null',
  }),
});
export type VariantStock = Static<typeof VariantStock>;

// Products and variants --------------------------------------------------------

export const ProductStatus = Type.Union([Type.Literal('DRAFT'), Type.Literal('ACTIVE'), Type.Literal('ARCHIVED')]);
export const VariantStatus = Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')]);

export const ProductCreate = Type.Object(
  {
    name: NonBlank(200),
    slug: Type.Optional(Slug),
    description: Type.Optional(LongText(20000)),
    brand: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
    status: Type.Optional({ ...ProductStatus, description: 'Default DRAFT; only ACTIVE products are public' }),
    category_public_ids: Type.Optional(
      Type.Array(PublicIdRef('cat'), { maxItems: 20, uniqueItems: true, description: 'Replaces the set' }),
    ),
    images: Type.Optional(Images),
  },
  { additionalProperties: false },
);
export type ProductCreate = Static<typeof ProductCreate>;

export const ProductPatch = Type.Partial(ProductCreate, { additionalProperties: false, minProperties: 1 });
export type ProductPatch = Static<typeof ProductPatch>;

// TypeBox's Record keeps only the value schema, so the name's bounds are stated as propertyNames.
const Options = Type.Record(Type.String(), RequiredText(100), {
  maxProperties: 10,
  propertyNames: RequiredText(50),
  description: 'Option name (1-50 characters) to value (1-100), e.g. {"size": "M", "colour": "Blue"}',
});

export const VariantCreate = Type.Object(
  {
    sku: Type.String({ minLength: 1, maxLength: 80, pattern: '^[A-Za-z0-9][A-Za-z0-9._/-]*$', description: 'Unique, case-insensitive' }),
    name: NonBlank(200),
    options: Type.Optional(Options),
    price: MoneyInput,
    compare_at_price: Type.Optional(Type.Union([MoneyInput, Type.Null()])),
    cost_price: Type.Optional(Type.Union([MoneyInput, Type.Null()])),
    status: Type.Optional({ ...VariantStatus, description: 'Default ACTIVE' }),
    images: Type.Optional(Images),
    position: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000 })),
  },
  { additionalProperties: false },
);
export type VariantCreate = Static<typeof VariantCreate>;

export const VariantBatch = Type.Object(
  {
    variants: Type.Array(
      Type.Object(
        {
          ...VariantCreate.properties,
          stock: Type.Optional(
            Type.Object(
              {
                quantity_on_hand: Type.Integer({ minimum: 0, maximum: 1_000_000_000 }),
                reorder_level: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 1_000_000_000 }), Type.Null()])),
              },
              { additionalProperties: false, description: 'A stock record made with the variant' },
            ),
          ),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 100 },
    ),
  },
  { additionalProperties: false, description: 'Variants made together, all or none (e.g. every size × colour)' },
);
export type VariantBatch = Static<typeof VariantBatch>;

export const VariantPatch = Type.Partial(VariantCreate, { additionalProperties: false, minProperties: 1 });
export type VariantPatch = Static<typeof VariantPatch>;

const CategoryRef = Type.Object({ public_id: Type.String(), name: Type.String(), slug: Type.String() });
const Rating = Type.Object({ average: Type.Number(), count: Type.Integer() });

export const PublicVariant = Type.Object({
  public_id: Type.String(),
  sku: Type.String(),
  name: Type.String(),
  options: Type.Record(Type.String(), Type.String()),
  price: Money,
  compare_at_price: Type.Union([Money, Type.Null()]),
  status: VariantStatus,
  in_stock: Type.Boolean({ description: 'Exact counts are admin-only' }),
  images: Type.Array(Image),
});
export type PublicVariant = Static<typeof PublicVariant>;

export const AdminVariant = Type.Object(
  {
    ...PublicVariant.properties,
    product_public_id: Type.String(),
    cost_price: Type.Union([Money, Type.Null()]),
    position: Type.Integer(),
    inventory: Type.Union([InventoryRecord, Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
    deleted_at: Type.Union([Timestamp, Type.Null()]),
  },
  { $id: 'AdminVariant' },
);
export type AdminVariant = Static<typeof AdminVariant>;

const productFields = {
  public_id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  description: Type.String(),
  brand: Type.Union([Type.String(), Type.Null()]),
  status: ProductStatus,
  categories: Type.Array(CategoryRef),
  images: Type.Array(Image),
  price_min: Type.Union([Money, Type.Null()]),
  price_max: Type.Union([Money, Type.Null()]),
  rating: Rating,
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const Product = Type.Object({ ...productFields, variants: Type.Array(PublicVariant) }, { $id: 'Product' });
export type Product = Static<typeof Product>;

export const AdminProduct = Type.Object(
  { ...productFields, variants: Type.Array(AdminVariant), deleted_at: Type.Union([Timestamp, Type.Null()]) },
  { $id: 'AdminProduct' },
);
export type AdminProduct = Static<typeof AdminProduct>;

// List queries -------------------------------------------------------------------

export const PRODUCT_SORTS = ['name', 'price', 'created_at', 'rating'] as const;
export type ProductSortField = (typeof PRODUCT_SORTS)[number];
/** The storefront's lists also sort a search by how well each product matches it (the best first). */
export type PublicProductSortField = ProductSortField | 'relevance';

const productFilters = {
  ...PageQuery,
  search: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'Words (at most 8 count), each found in the name, brand, description or a SKU, in any order; a plural finds its singular ("boots" finds "Boot"); a one-character word counts only when it is the only kind given',
    }),
  ),
  min_price: Type.Optional(MoneyInput),
  max_price: Type.Optional(MoneyInput),
  in_stock: Type.Optional(
    Type.Union([Type.Literal('true'), Type.Literal('false')], { description: '"true": only products with a variant in stock' }),
  ),
  sort: SortQuery(PRODUCT_SORTS, '-created_at'),
};

/**
 * The public lists' filters: their sort takes `relevance` too, a search's words found in the name before those
 * found in the brand, before those found only in the description or a SKU, then the newest first (without a
 * search, the newest first).
 */
const publicProductFilters = {
  ...productFilters,
  sort: SortQuery(PRODUCT_SORTS, '-created_at', ['relevance']),
};

export const CategoryProductsQuery = Type.Object(publicProductFilters);
export const ProductListQuery = Type.Object({
  ...publicProductFilters,
  category: Type.Optional(PublicIdRef('cat', 'cat_ ID; includes its subcategories')),
});
export type ProductListQuery = Static<typeof ProductListQuery>;

/** A search that found nothing, with the filters it was made under: the suggestion must find something under them too. */
export const SearchSuggestionQuery = Type.Object(
  {
    search: Type.String({ minLength: 1, maxLength: 200, description: 'The search that found nothing' }),
    category: ProductListQuery.properties.category,
    min_price: productFilters.min_price,
    max_price: productFilters.max_price,
    in_stock: productFilters.in_stock,
  },
  { additionalProperties: false },
);
export type SearchSuggestionQuery = Static<typeof SearchSuggestionQuery>;

export const SearchSuggestion = Type.Object({
  search: Type.Union([Type.String(), Type.Null()], {
    description:
      "The search with each word the catalog does not have replaced by the catalog's closest word (a mistyped word), when that search finds products under the same filters; null when there is none",
  }),
});

export const AdminProductListQuery = Type.Object({
  ...productFilters,
  category: Type.Optional(PublicIdRef('cat', 'cat_ ID; includes its subcategories')),
  status: Type.Optional(ProductStatus),
  include_deleted: Type.Union([Type.Literal('true'), Type.Literal('false')], { default: 'false' }),
});
export type AdminProductListQuery = Static<typeof AdminProductListQuery>;

export const CategoryListQuery = Type.Object({
  ...PageQuery,
  parent: Type.Optional(PublicIdRef('cat', 'cat_ ID: only its direct children; "root": only top-level categories')),
});
export type CategoryListQuery = Static<typeof CategoryListQuery>;

export const BulkProductStatus = Type.Object(
  { product_public_ids: BulkIds('prd'), status: ProductStatus },
  { additionalProperties: false },
);
export type BulkProductStatus = Static<typeof BulkProductStatus>;

export const BulkProductDelete = Type.Object({ product_public_ids: BulkIds('prd') }, { additionalProperties: false });
export type BulkProductDelete = Static<typeof BulkProductDelete>;
