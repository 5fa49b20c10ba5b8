import { Type, type Static } from 'typebox';
import { RequiredText } from '../lib/schemas.js';

export const ImportMode = Type.Union([Type.Literal('validate'), Type.Literal('all_or_nothing'), Type.Literal('valid_rows')], {
  description: 'validate: check only; all_or_nothing: write only if no row is refused; valid_rows: write the rows that pass',
});
export type ImportMode = Static<typeof ImportMode>;

export const ImportQuery = Type.Object({
  mode: ImportMode,
  reason: Type.Optional(
    RequiredText(255, { description: "Recorded with every change the import makes (a stock count's name, say); default 'CSV import'" }),
  ),
});

const Counts = Type.Object({
  products: Type.Integer({ minimum: 0 }),
  variants: Type.Integer({ minimum: 0 }),
  stock_records: Type.Integer({ minimum: 0 }),
});

export const ImportReport = Type.Object({
  mode: ImportMode,
  applied: Type.Boolean({ description: 'Whether anything was written (in one transaction)' }),
  rows: Type.Integer({ minimum: 0, description: 'Rows under the header' }),
  valid: Type.Integer({ minimum: 0, description: 'Rows that passed every check' }),
  refused: Type.Array(
    Type.Object({
      line: Type.Integer({ description: 'Line of the file (the header is line 1)' }),
      sku: Type.Union([Type.String(), Type.Null()]),
      field: Type.String({ description: 'The column at fault' }),
      message: Type.String({ description: "Why, in words: what the column takes, e.g. 'must be one of DRAFT, ACTIVE, ARCHIVED'" }),
    }),
  ),
  stock_changes: Type.Array(
    Type.Object({
      line: Type.Integer({ description: 'Line of the file (the header is line 1)' }),
      sku: Type.String(),
      on_hand_now: Type.Union([Type.Integer(), Type.Null()], {
        description: 'The quantity on hand when the file was read; null when the variant has no stock record yet',
      }),
      on_hand_new: Type.Integer({ description: "The file's quantity_on_hand" }),
    }),
    { description: "The valid rows that change the quantity on hand of a variant the store has (a stock count's preview), in file order" },
  ),
  created: Counts,
  updated: Counts,
});
export type ImportReport = Static<typeof ImportReport>;
