/** The category tree as the console shows it: the API's flat list, nested, siblings in their display order. */

export interface Category {
  public_id: string;
  name: string;
  slug: string;
  description: string | null;
  parent_public_id: string | null;
  position: number;
}

export interface Node extends Category {
  children: Node[];
  depth: number;
}

const byPosition = (a: Category, b: Category) => a.position - b.position || a.name.localeCompare(b.name);

/** The flat list the API returns as a tree, siblings in their display order. */
export function treeOf(categories: Category[]): Node[] {
  const build = (parent: string | null, depth: number): Node[] =>
    categories
      .filter((c) => c.parent_public_id === parent)
      .sort(byPosition)
      .map((c) => ({ ...c, depth, children: build(c.public_id, depth + 1) }));
  return build(null, 0);
}

/** Every node in display order: each parent before its children. */
export const flatten = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

/**
 * The positions that swap `node` with its neighbour one `step` away, renumbering the siblings 0, 10,
 * 20... so equal positions never tie; null when there is no neighbour that way. Only the siblings
 * whose position changes are listed.
 */
export function swapWithNeighbour(
  node: Category,
  siblings: Category[],
  step: -1 | 1,
): { order: Category[]; moves: [Category, number][] } | null {
  const order = [...siblings];
  const index = order.findIndex((s) => s.public_id === node.public_id);
  const target = index + step;
  if (index < 0 || target < 0 || target >= order.length) return null;
  [order[index], order[target]] = [order[target]!, order[index]!];
  return { order, moves: changed(order.map((sibling, position) => [sibling, position * 10])) };
}

/** The moves that put each sibling back where it was before `order` rearranged them. */
export function restoreOrder(siblings: Category[], order: Category[]): [Category, number][] {
  return changed(siblings.map((sibling) => [{ ...sibling, position: order.indexOf(sibling) * 10 }, sibling.position]));
}

const changed = (positions: [Category, number][]) => positions.filter(([sibling, position]) => sibling.position !== position);

/**
 * Each category with the names on its way down from the top ("Kitchen", "Mugs"), in display order:
 * how a picker tells two categories of the same name apart.
 */
export function withPaths(categories: Category[]): { category: Node; path: string[] }[] {
  const walk = (nodes: Node[], above: string[]): { category: Node; path: string[] }[] =>
    nodes.flatMap((node) => {
      const path = [...above, node.name];
      return [{ category: node, path }, ...walk(node.children, path)];
    });
  return walk(treeOf(categories), []);
}

const FIRST_STRONG_ISOLATE = '\u2068';
const POP_ISOLATE = '\u2069';
const SEPARATOR = `${POP_ISOLATE} › ${FIRST_STRONG_ISOLATE}`;

/**
 * A category's path as one line of plain text: "Kitchen › Mugs", each name isolated (U+2068 ... U+2069)
 * so one name's direction, or a control stored in it, cannot reorder the names after it where the
 * label is shown as text (a select's input, a multi-select's pills).
 */
export const pathLabel = (path: string[]) => `${FIRST_STRONG_ISOLATE}${path.join(SEPARATOR)}${POP_ISOLATE}`;

/** The names of a pathLabel, or a plain label as its one name. */
export const pathNames = (label: string): string[] =>
  label.startsWith(FIRST_STRONG_ISOLATE) && label.endsWith(POP_ISOLATE) ? label.slice(1, -1).split(SEPARATOR) : [label];
