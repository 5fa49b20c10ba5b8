import { text } from '../../lib/search';

/** Where to go back to after signing in (a console path; anything else is ignored by safeRedirect). */
export const signInSearch = (search: Record<string, unknown>): { redirect?: string | undefined } => ({
  redirect: text(search.redirect, 500),
});

/** Only a path inside the console at `origin` is followed after sign-in (never another origin). */
export function safeRedirect(target: string | undefined, origin: string): string {
  if (!target) return '/';
  try {
    const url = new URL(target, origin);
    if (url.origin !== origin) return '/';
    const path = url.pathname.replace(/^\/admin/, '') || '/';
    return `${path}${url.search}`;
  } catch {
    return '/';
  }
}
