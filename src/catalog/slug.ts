import type { AppError } from '../lib/errors.js';
import { newPublicId } from '../lib/ids.js';
/** "Men's Shoes & Boots" -> "mens-shoes-boots"; falls back to "item" for names with no letters or digits. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/g, '');
  return slug || 'item';
}

/**
 * The slug to store for a product or category: an explicit slug must be free
 * among live rows (else `taken()`); a generated one gets a short random suffix
 * when its base is taken. `inUse` asks the owner's repository.
 */
export async function chooseSlug(
  explicit: string | undefined,
  name: string,
  taken: () => AppError,
  inUse: (candidate: string) => Promise<boolean>,
): Promise<string> {
  const candidate = explicit ?? slugify(name);
  if (!(await inUse(candidate))) return candidate;
  if (explicit) throw taken();
  return withSuffix(candidate);
}

/**
 * chooseSlug for many new rows at once (a catalog import): one look at the store for every
 * candidate, and no two of the rows get the same slug.
 */
export async function chooseSlugs(
  wanted: readonly { explicit: string | undefined; name: string }[],
  taken: () => AppError,
  inUse: (candidates: string[]) => Promise<Set<string>>,
): Promise<string[]> {
  const candidates = wanted.map((w) => w.explicit ?? slugify(w.name));
  const used = await inUse([...new Set(candidates)]);
  return candidates.map((candidate, i) => {
    let slug = candidate;
    if (used.has(slug)) {
      if (wanted[i]!.explicit) throw taken();
      do slug = withSuffix(candidate);
      while (used.has(slug));
    }
    used.add(slug);
    return slug;
  });
}

const withSuffix = (candidate: string) => `${candidate.slice(0, 100)}-${newPublicId('prd').slice(4, 10).toLowerCase()}`;
