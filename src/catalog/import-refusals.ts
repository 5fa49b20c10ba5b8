import type { ProductCsvColumn } from './product-csv.js';

/**
 * What a cell that breaks its column's rule is told, in the words of a spreadsheet rather than of
 * the validator ("must be one of DRAFT, ACTIVE, ARCHIVED", not "must be equal to constant"). The
 * limits and allowed values are read from the column's schema, so the words follow the rule when
 * it changes; only what a pattern means is said here, since a pattern cannot say it itself.
 */

/** One complaint of the validator about a row. */
export interface RowIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** The parts of a JSON schema the words are made from. */
interface Rule {
  type?: string;
  anyOf?: Rule[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  maxProperties?: number;
  patternProperties?: Record<string, Rule>;
  propertyNames?: Rule;
}

const text = (rule: Rule) =>
  rule.minLength
    ? `text of ${rule.minLength} to ${rule.maxLength} characters, not only spaces`
    : `text of up to ${rule.maxLength} characters`;
const oneOf = (rule: Rule) => `one of ${(rule.anyOf ?? []).map((value) => String(value.const)).join(', ')}`;
const price = () => 'a price like 19.99 (a dot before the cents, no currency sign)';
const wholeNumber = (rule: Rule) => `a whole number, ${rule.minimum} or more`;

/** Each column's rule, to follow "must be". */
const RULES: Record<ProductCsvColumn, (rule: Rule) => string> = {
  product_slug: (rule) => `lowercase letters, digits and single hyphens, like linen-shirt, up to ${rule.maxLength} characters`,
  product_name: text,
  product_status: oneOf,
  brand: text,
  description: text,
  categories: (rule) => `up to ${rule.maxItems} category slugs separated by |, each once (like shirts|summer)`,
  sku: (rule) =>
    `letters, digits, dots, underscores, slashes or hyphens, starting with a letter or digit, up to ${rule.maxLength} characters`,
  variant_name: text,
  options: (rule) => {
    const value = Object.values(rule.patternProperties ?? {})[0];
    return `up to ${rule.maxProperties} name=value pairs separated by ; (like size=M; colour=Blue), each name of 1 to ${rule.propertyNames?.maxLength} characters and each value of 1 to ${value?.maxLength}`;
  },
  price,
  compare_at_price: price,
  cost_price: price,
  variant_status: oneOf,
  quantity_on_hand: wholeNumber,
  reorder_level: wholeNumber,
};

/** A column's schema without its `none` alternative, and whether it has one. */
function unwrap(schema: Rule): { rule: Rule; clearable: boolean } {
  const branches = schema.anyOf ?? [];
  const nullable = branches.some((branch) => branch.type === 'null');
  if (!nullable) return { rule: schema, clearable: false };
  const rest = branches.filter((branch) => branch.type !== 'null');
  return { rule: rest.length === 1 ? rest[0]! : { anyOf: rest }, clearable: true };
}

/**
 * The refusal of `column`'s cell, `value` as the row gave it (a string where options could not be
 * read as pairs). `schema` is the column's schema in the row's.
 */
export function refusalMessage(column: ProductCsvColumn, schema: unknown, issue: RowIssue, value: unknown): string {
  if (issue.keyword === 'required') return 'is needed on every row';
  // The text checks (control characters, broken Unicode) already speak plainly.
  if (issue.keyword === 'plainText' && issue.message) return issue.message;
  const { rule, clearable } = unwrap(schema as Rule);
  const none = clearable ? ', or none' : '';
  if (rule.type === 'integer' && typeof value === 'number') {
    if (issue.keyword === 'minimum') return `must be ${rule.minimum} or more`;
    if (issue.keyword === 'maximum') return `must be at most ${rule.maximum}`;
  }
  if (issue.keyword === 'maxLength' && typeof value === 'string' && issue.instancePath === `/${column}`) {
    return `must be at most ${rule.maxLength} characters (this one has ${[...value].length})`;
  }
  return `must be ${RULES[column](rule)}${none}`;
}
