/** An emailed link's `token=` parameter, if it looks like one (the API decides whether it is valid). */
export function tokenOf(url: URL): string | null {
  const token = url.searchParams.get('token');
  return token && token.length <= 512 && /^[A-Za-z0-9._~-]+$/.test(token) ? token : null;
}
