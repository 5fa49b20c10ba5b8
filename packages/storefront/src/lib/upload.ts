/**
 * In the browser: uploads a review photo straight to the image host the service names (ImageKit or
 * the service's own), with single-use credentials the storefront fetches for the signed-in shopper.
 * Resolves to the image's URL; throws when anything refuses, and the form then sends the file itself.
 */
export async function uploadPhoto(file: File, credentialsUrl: string): Promise<string> {
  const response = await fetch(credentialsUrl, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`credentials: ${response.status}`);
  const credentials = (await response.json()) as Record<string, string | number>;
  const form = new FormData();
  // The fields first: the service's own host reads them before it streams the file.
  form.append('fileName', file.name || 'photo');
  for (const field of ['token', 'expire', 'signature', 'publicKey', 'folder']) form.append(field, String(credentials[field]));
  form.append('file', file, file.name || 'photo');
  const uploaded = await fetch(String(credentials.uploadEndpoint), { method: 'POST', body: form, credentials: 'omit' });
  if (!uploaded.ok) throw new Error(`upload: ${uploaded.status}`);
  const { url } = (await uploaded.json()) as { url?: unknown };
  if (typeof url !== 'string') throw new Error('upload: no url');
  return url;
}
