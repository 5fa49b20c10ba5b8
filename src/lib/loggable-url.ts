/**
 * A request's URL as the log may keep it. The links our emails send carry single-use tokens in
 * their query (`/reset-password?token=...`, a staff invitation, an email verification): opening
 * the page does not spend the token, so a log line holding it would let anyone who reads the logs
 * take over the account. Such values are replaced; the rest of the URL stays for debugging.
 */
const SECRET_PARAMETER = /token|secret|password|signature/i;

export const REDACTED = '[redacted]';

export function loggableUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const pairs = url.slice(start + 1).split('&');
  let changed = false;
  const kept = pairs.map((pair) => {
    const equals = pair.indexOf('=');
    const name = equals === -1 ? pair : pair.slice(0, equals);
    if (equals === -1 || !SECRET_PARAMETER.test(nameOf(name))) return pair;
    changed = true;
    return `${name}=${REDACTED}`;
  });
  return changed ? `${url.slice(0, start)}?${kept.join('&')}` : url;
}

/** The parameter's name as a server reads it (`%74oken` is `token`); a malformed escape is taken as written. */
function nameOf(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}
