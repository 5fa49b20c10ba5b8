import type { FastifyInstance, LogLevel } from 'fastify';

/**
 * The level for requests that are detail of another (a page's in-process API calls, the files a page
 * loads): at LOG_LEVEL=info their request lines would outnumber the pages', so they show from debug
 * on; their warnings and errors always do.
 */
export const detailLevel = (level: string): LogLevel => (level === 'info' ? 'warn' : (level as LogLevel));

/** The same, for the routes of a plugin registered on `app` (its build's static files). */
export const assetLogLevel = (app: FastifyInstance): LogLevel => detailLevel(app.log.level);
