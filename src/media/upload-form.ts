import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { payloadTooLarge, unsupportedMediaType, uploadsBusy, validationError } from '../lib/errors.js';
import { UPLOAD_FIELD_BYTES, type UploadedFile } from './schemas.js';
import { IMAGE_HEAD_BYTES, MAX_UPLOAD_BYTES, imageTypeOf, type MediaService, type UploadPermit } from './service.js';

/**
 * How the built-in image host reads an upload, so that no one can make it
 * hold files it will refuse. The form is read in order: the credential
 * fields come first and are checked when the file part begins, before any of
 * its bytes are read; then the file is read with its 5 MB cap, refused at its
 * first bytes when they are not an image's. Only uploads that passed their
 * credentials hold file bytes, and at most `maxInFlight` of them at once per
 * process; one more is told to come back (503 with Retry-After).
 */

/** Room for the form around a 5 MB file: the fields (20 of at most 4 KB) and the parts' headers. */
const FORM_ALLOWANCE_BYTES = 256 * 1024;
export const MAX_FORM_BYTES = MAX_UPLOAD_BYTES + FORM_ALLOWANCE_BYTES;

/** Busboy's limits for the form: one file of at most 5 MB, a few short fields. */
export const UPLOAD_FORM_LIMITS = { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20, fieldSize: UPLOAD_FIELD_BYTES, parts: 25 };

/** A moment is enough for another upload to finish. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/** Counts the uploads of this process that hold file bytes; `acquire` refuses one past the limit. */
export function uploadSlots(maxInFlight: number) {
  let inFlight = 0;
  return {
    acquire(): () => void {
      if (inFlight >= maxInFlight) throw uploadsBusy(BUSY_RETRY_AFTER_SECONDS);
      inFlight += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        inFlight -= 1;
      };
    },
  };
}
export type UploadSlots = ReturnType<typeof uploadSlots>;

/** Reads and stores one upload; any refusal is thrown before the rest of the file is read. */
export async function receiveUpload(
  request: FastifyRequest,
  media: Pick<MediaService, 'authorizeUpload' | 'storeUpload'>,
  slots: UploadSlots,
): Promise<UploadedFile> {
  if (!request.isMultipart()) throw unsupportedMediaType('Send the upload as multipart/form-data');
  if (Number(request.headers['content-length']) > MAX_FORM_BYTES) throw payloadTooLarge('The file is larger than 5 MB');

  const fields: Record<string, string> = {};
  let upload: { permit: UploadPermit; content: Buffer } | null = null;
  let release: (() => void) | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.fieldname in fields || (part.fieldname === 'file' && upload)) {
        throw validationError(`The ${part.fieldname} parameter is repeated`);
      }
      if (part.type === 'field') {
        if (part.valueTruncated) throw validationError(`The ${part.fieldname} parameter is too long`);
        if (part.fieldname === 'file') throw validationError('Send file as a binary file part; base64 and URLs are not accepted');
        fields[part.fieldname] = String(part.value);
        continue;
      }
      if (part.fieldname !== 'file') throw validationError(`Unexpected file part ${part.fieldname}`);
      const permit = await media.authorizeUpload(fields);
      release = slots.acquire();
      upload = { permit, content: await readImage(part.file) };
    }
    if (!upload) throw validationError('Missing file parameter: send the image as a binary file part named "file"');
    return await media.storeUpload(upload.permit, upload.content);
  } finally {
    release?.();
  }
}

/** The file part, whole, refused as soon as it is past the cap or its first bytes are not an image's. */
async function readImage(file: Readable & { truncated?: boolean }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  let checked = false;
  for await (const chunk of file as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (file.truncated || size > MAX_UPLOAD_BYTES) throw payloadTooLarge('The file is larger than 5 MB');
    chunks.push(chunk);
    if (!checked && size >= IMAGE_HEAD_BYTES) {
      imageTypeOf(Buffer.concat(chunks));
      checked = true;
    }
  }
  if (file.truncated) throw payloadTooLarge('The file is larger than 5 MB');
  return Buffer.concat(chunks, size);
}

/**
 * After a refusal the client may still be sending its file. It cannot read
 * the answer while its send is stuck, so the rest of the body is read and
 * dropped as it comes (no memory kept), up to what a valid form could hold;
 * past that the connection is cut.
 */
export function discardUnreadBody(raw: IncomingMessage): void {
  if (raw.complete || raw.destroyed) return;
  raw.unpipe();
  let seen = 0;
  raw.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > MAX_FORM_BYTES) raw.destroy();
  });
  raw.resume();
}
