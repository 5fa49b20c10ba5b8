export interface NavCategory {
  name: string;
  slug: string;
  children: NavCategory[];
}

/** A category as the browser receives it: name, slug, children. */
type Packed = [string, string, Packed[]];

const pack = (entries: readonly NavCategory[]): Packed[] => entries.map((c) => [c.name, c.slug, pack(c.children)]);
const unpack = (packed: readonly Packed[]): NavCategory[] =>
  packed.map(([name, slug, children]) => ({ name, slug, children: unpack(children) }));

/**
 * The category navigation every page's layout data carries, as the server builds it: once per category
 * tree (one catalog version), not once per page. It is an array like any other to the components; the
 * `transport` hook (hooks.ts) sends it to the browser as JSON made once per list, so SvelteKit's
 * serializer does not walk the same few hundred objects for every page it renders. The browser gets a
 * plain array of the same entries (`NavList.decode`).
 */
export class NavList extends Array<NavCategory> {
  #json: string | undefined;

  static made(entries: readonly NavCategory[]): NavList {
    const list = new NavList();
    list.push(...entries);
    return list;
  }

  /** The entries as the browser receives them, made the first time a page is serialized. */
  json(): string {
    return (this.#json ??= JSON.stringify(pack(this)));
  }

  static decode(json: string): NavCategory[] {
    return unpack(JSON.parse(json) as Packed[]);
  }
}
