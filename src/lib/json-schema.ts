/** A JSON Schema written as an object (not a boolean schema, not a list of them). */
export type SchemaNode = Record<string, unknown>;

export const isSchemaNode = (value: unknown): value is SchemaNode => typeof value === 'object' && value !== null && !Array.isArray(value);

const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const SUBSCHEMAS = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'] as const;
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions'] as const;

/**
 * A shallow copy of `node` with `rewrite` applied to each schema directly inside it: the options of
 * a combinator, items, properties and the like. Values that only look like schemas (`const`,
 * `enum`, `default`, `examples`) are left as they are.
 */
export function mapSubschemas(node: SchemaNode, rewrite: (schema: unknown) => unknown): SchemaNode {
  const out: SchemaNode = { ...node };
  for (const key of SUBSCHEMA_LISTS) if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map(rewrite);
  for (const key of SUBSCHEMAS) if (isSchemaNode(out[key])) out[key] = rewrite(out[key]);
  if (Array.isArray(out.items)) out.items = out.items.map(rewrite); // a tuple as draft-07 writes it (TypeBox's Tuple)
  for (const key of SUBSCHEMA_MAPS) {
    const map = out[key];
    if (isSchemaNode(map)) out[key] = Object.fromEntries(Object.entries(map).map(([name, schema]) => [name, rewrite(schema)]));
  }
  return out;
}
