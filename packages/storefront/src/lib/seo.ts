/** A page's canonical URL on the shop's public origin, with only the parameters that make it a different page. */
export function canonical(origin: string, path: string, params: Record<string, string | number | null | undefined> = {}): string {
  const url = new URL(path, origin);
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== '') url.searchParams.set(key, String(value));
  }
  return url.href;
}

/** A meta description: one line of plain text, cut at a word near 155 characters. */
export function describe(text: string, fallback = ''): string {
  const flat = (text || fallback).replace(/\s+/g, ' ').trim();
  if (flat.length <= 155) return flat;
  const cut = flat.slice(0, 152);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 100 ? cut.lastIndexOf(' ') : 152).replace(/[,.;:!?-]+$/, '')}…`;
}
