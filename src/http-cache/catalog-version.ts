import type { Db } from '../db/database.js';
import { readCatalogVersion } from './repository.js';

/**
 * The catalog's version as of a moment after the caller asked: concurrent
 * callers share one query, but never one that started before they asked (it
 * could miss a change committed since). One query runs at a time; whoever
 * asks meanwhile waits for the next, which starts as soon as it ends. Under
 * load a conditional request costs a fraction of a round trip, and its
 * answer is never older than the request.
 */
export function createCatalogVersion(db: Db) {
  let running: Promise<number> | null = null;
  let queued: Promise<number> | null = null;

  function start(): Promise<number> {
    const query: Promise<number> = readCatalogVersion(db).finally(() => {
      if (running === query) running = null;
    });
    running = query;
    return query;
  }

  return {
    read(): Promise<number> {
      if (!running) return start();
      queued ??= running
        .catch(() => undefined)
        .then(() => {
          queued = null;
          return start();
        });
      return queued;
    },
  };
}

export type CatalogVersion = ReturnType<typeof createCatalogVersion>;
