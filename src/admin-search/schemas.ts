import { Type, type Static, type TSchema } from 'typebox';
import { AdminProduct } from '../catalog/schemas.js';
import { User } from '../identity/schemas.js';
import { AdminOrder } from '../orders/schemas.js';

export const SearchQuery = Type.Object({
  q: Type.String({ minLength: 1, maxLength: 200, description: 'An order number, SKU, email, name or any part of one' }),
});
export type SearchQuery = Static<typeof SearchQuery>;

const Hits = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), total: Type.Integer({ description: 'How many match in all (the list shows at most five)' }) });

export const SearchResults = Type.Object({
  exact: Type.Union(
    [
      Type.Object({ kind: Type.Literal('order'), public_id: Type.String() }),
      Type.Object({ kind: Type.Literal('variant'), public_id: Type.String(), product_public_id: Type.String() }),
      Type.Object({ kind: Type.Literal('user'), public_id: Type.String() }),
      Type.Object({ kind: Type.Literal('product'), public_id: Type.String() }),
      Type.Null(),
    ],
    {
      description:
        'The one thing the text names outright (an order number, a SKU, an email, or the whole name of one product among those found), else null',
    },
  ),
  orders: Hits(AdminOrder),
  products: Hits(AdminProduct),
  users: Hits(User),
});
export type SearchResults = Static<typeof SearchResults>;
