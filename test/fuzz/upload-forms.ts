import fc from 'fast-check';
import { tinyPng, type credentials } from '../helpers/media.js';
import { hostileValue } from './arbitraries.js';
import { queryText } from './requests.js';

/**
 * The forms the upload fuzz sends: the one an ImageKit client would send,
 * spoiled in one part: a hostile field value, a missing, repeated or unknown
 * field, a file that is not an image (or empty, or too large), a second file,
 * a file sent before some of the fields, or a body that is not well-formed multipart.
 */
export type FormMutation =
  | { kind: 'field'; pick: number; value: unknown }
  | { kind: 'drop'; pick: number }
  | { kind: 'repeat'; pick: number; value: unknown }
  | { kind: 'extra'; value: unknown }
  | { kind: 'file'; bytes: Uint8Array | 'empty' | 'huge' | 'truncated' | 'none' | 'twice' | 'as-text' }
  | { kind: 'fileEarly'; pick: number }
  | { kind: 'raw'; body: string; contentType: string };

const FORM_FIELDS = ['fileName', 'token', 'expire', 'signature', 'publicKey', 'folder'];
export const formMutation: fc.Arbitrary<FormMutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('field' as const), pick: fc.nat(), value: hostileValue }) },
  fc.record({ kind: fc.constant('drop' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('repeat' as const), pick: fc.nat(), value: hostileValue }),
  fc.record({ kind: fc.constant('extra' as const), value: hostileValue }),
  fc.record({ kind: fc.constant('fileEarly' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('file' as const),
    bytes: fc.oneof(
      fc.uint8Array({ maxLength: 64 }),
      fc.constantFrom('empty' as const, 'huge' as const, 'truncated' as const, 'none' as const, 'twice' as const, 'as-text' as const),
    ),
  }),
  fc.record({
    kind: fc.constant('raw' as const),
    body: fc.constantFrom(
      '',
      '--x',
      '--x\r\nContent-Disposition: form-data; name="token"\r\n\r\nabc',
      '--x\r\n\r\n--x--',
      '\u0000',
      'not multipart at all',
    ),
    contentType: fc.constantFrom(
      'multipart/form-data; boundary=x',
      'multipart/form-data',
      'multipart/form-data; boundary=',
      'multipart/mixed; boundary=x',
    ),
  }),
);

export function uploadForm(
  creds: Awaited<ReturnType<typeof credentials>>,
  m: FormMutation,
): { body: FormData | string; headers: Record<string, string> } {
  if (m.kind === 'raw') return { body: m.body, headers: { 'content-type': m.contentType } };
  const fields: [string, string][] = FORM_FIELDS.map((name) => [
    name,
    name === 'fileName' ? 'x.png' : String(creds[name as keyof typeof creds]),
  ]);
  const pick = (n: number) => n % FORM_FIELDS.length;
  if (m.kind === 'field') fields[pick(m.pick)]![1] = queryText(m.value);
  if (m.kind === 'drop') fields.splice(pick(m.pick), 1);
  if (m.kind === 'repeat') fields.push([FORM_FIELDS[pick(m.pick)]!, queryText(m.value)]);
  if (m.kind === 'extra') fields.push(['unknown_field', queryText(m.value)]);
  const form = new FormData();
  const png = tinyPng();
  const file =
    m.kind !== 'file'
      ? png
      : m.bytes === 'empty'
        ? Buffer.alloc(0)
        : m.bytes === 'huge'
          ? Buffer.alloc(6 * 1024 * 1024, 1)
          : m.bytes === 'truncated'
            ? png.subarray(0, 20)
            : typeof m.bytes === 'string'
              ? png
              : Buffer.from(m.bytes);
  const sends = m.kind !== 'file' || m.bytes !== 'none';
  // The file goes last, as clients send it, unless the mutation moves it before some of the fields.
  const fileAt = m.kind === 'fileEarly' ? m.pick % fields.length : fields.length;
  for (const [name, value] of fields.slice(0, fileAt)) form.append(name, value);
  if (m.kind === 'file' && m.bytes === 'as-text') form.append('file', png.toString('base64'));
  else if (sends) form.append('file', new Blob([file]), 'x.png');
  if (m.kind === 'file' && m.bytes === 'twice') form.append('file', new Blob([png]), 'y.png');
  for (const [name, value] of fields.slice(fileAt)) form.append(name, value);
  return { body: form, headers: {} };
}
