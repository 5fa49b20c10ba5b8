import type { FastifyRequest } from 'fastify';

/** Paths whose answers are for programs (the API, the image host, probes, metrics, the API's description): the envelope, always. */
const FOR_PROGRAMS = /^\/(?:api|media|health|metrics|openapi\.json)(?:[/?]|$)/;

/**
 * Whether a 503 goes to a person: a browser opening a page (the shop, the console, the API reference),
 * which would otherwise show the envelope's JSON. Any other caller, and every API path, gets the envelope.
 */
export function opensAPage(request: FastifyRequest): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    !FOR_PROGRAMS.test(request.url) &&
    /\btext\/html\b/.test(request.headers.accept ?? '')
  );
}

/**
 * A page of the service's own for what happens before a shop page can render: a heading, sentences, a
 * link on, and the reference the log has. No script or style: it is served under the API's own
 * security headers. Every argument is the service's own text.
 */
function page(title: string, sentence: string, link: { href: string; text: string }, requestId: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
</head>
<body>
<main>
<h1>${title}</h1>
<p>${sentence}</p>
<p><a href="${link.href}">${link.text}</a></p>
<p><small>Reference: ${requestId.replace(/[^\w-]/g, '')}</small></p>
</main>
</body>
</html>
`;
}

const PAGES = {
  /** While the service cannot answer (starting up, waiting for its database to be migrated, draining for a restart). */
  unavailable: {
    title: 'Back in a moment',
    sentence: 'The shop cannot answer just now: it is starting up or being updated. Please try again in a few seconds.',
    link: { href: '', text: 'Try again' },
  },
  /** A link whose address cannot be read (a `%` not followed by two hex digits: cut or mangled by a mail program). */
  'broken-link': {
    title: 'This link is broken',
    sentence:
      'Part of its address is missing or was changed on the way, so the shop cannot tell which page it means. If it came in an email, copy the whole link again, or start from the shop.',
    link: { href: '/', text: 'Go to the shop' },
  },
} as const;

export type BrowserPage = keyof typeof PAGES;

export const browserPage = (kind: BrowserPage, requestId: string): string => {
  const { title, sentence, link } = PAGES[kind];
  return page(title, sentence, link, requestId);
};
