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
 * The page a shopper sees while the service cannot answer (starting up, waiting for its database to be
 * migrated, draining for a restart): what is happening in words, a way to try again, and the reference
 * the log has. No script or style: it is served under the API's own security headers.
 */
export function unavailablePage(requestId: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Back in a moment</title>
</head>
<body>
<main>
<h1>Back in a moment</h1>
<p>The shop cannot answer just now: it is starting up or being updated. Please try again in a few seconds.</p>
<p><a href="">Try again</a></p>
<p><small>Reference: ${requestId.replace(/[^\w-]/g, '')}</small></p>
</main>
</body>
</html>
`;
}
