/**
 * A page number from the URL's `name` parameter: a whole number from 1 to `last`, else 1, so a
 * hand-edited or old link (`?page=2.5`, `?page=-1`) shows the first page rather than the API's refusal.
 */
export function pageNumber(url: URL, name = 'page', last = 10_000): number {
  const page = Number(url.searchParams.get(name));
  return Number.isInteger(page) && page >= 1 && page <= last ? page : 1;
}
