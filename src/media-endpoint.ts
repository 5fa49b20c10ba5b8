import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { transaction } from './db/transaction.js';
import { moveImageUrls as moveCatalogImages } from './catalog/product-repository.js';
import { moveMediaFiles, recordedMediaEndpoint } from './media/repository.js';
import { moveImageUrls as moveReviewPhotos } from './reviews/repository.js';

/**
 * The built-in image host's files are named by whole URLs (PUBLIC_BASE_URL + `/media` + path), and
 * products and reviews store those URLs. When an instance starts with another PUBLIC_BASE_URL than
 * the last one (a new domain, another port, a seed run with the default address), every stored URL
 * of the old address would point where nothing serves them (and a page's Content-Security-Policy
 * would block them): the instance moves them to its own address, in one transaction, before it
 * serves. Instances starting at once take turns (moveMediaFiles); the second finds nothing left to move.
 */
export async function followMediaEndpoint(db: Db, endpoint: string, log: FastifyBaseLogger): Promise<void> {
  const moved = await transaction(db, async (trx) => {
    const from = await moveMediaFiles(trx, endpoint);
    let rows = 0;
    // Reviews before products and variants: the order of LOCKING.md.
    for (const old of from) rows += (await moveReviewPhotos(trx, old, endpoint)) + (await moveCatalogImages(trx, old, endpoint));
    return { from, rows };
  });
  if (moved.from.length > 0) {
    log.warn({ from: moved.from, to: endpoint, rows: moved.rows }, 'uploaded images moved to this address (PUBLIC_BASE_URL changed)');
  }
}

/**
 * The PUBLIC_BASE_URL the instances last started with, as their built-in image host recorded it (its
 * endpoint is that address and `/media`); null before any did, or when the images are ImageKit's. For
 * a process that serves nothing (the seed, a worker of its own) and so has no address of its own to go by.
 */
export async function lastServedBaseUrl(db: Db, config: Pick<Config, 'imagekit'>): Promise<string | null> {
  const served = config.imagekit ? null : await recordedMediaEndpoint(db);
  return served?.endsWith(MEDIA_PATH) ? served.slice(0, -MEDIA_PATH.length) : null;
}

const MEDIA_PATH = '/media';
