import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server inside the test process (127.0.0.1, a free port, no
 * authentication, no STARTTLS) that keeps every message it receives. Start
 * the app with `SMTP_URL: mail.url` and the outbox worker delivers here.
 */
export interface ReceivedMail {
  /** Envelope recipients (RCPT TO), lower-cased. */
  to: string[];
  /** The message exactly as received: headers and MIME body. */
  raw: string;
}

export interface MailPart {
  contentType: string;
  body: string;
}

export interface MailCatcher {
  url: string;
  messages: ReceivedMail[];
  /** Messages whose envelope names `address` (case-insensitive). */
  to(address: string): ReceivedMail[];
  /** Polls until `predicate` holds (or throws after `timeoutMs`). */
  waitFor<T>(predicate: () => T | undefined | null | false, timeoutMs?: number): Promise<T>;
  /** Waits for the first message to `address` whose subject is `subject`. */
  waitForMail(address: string, subject: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** From now on each message is kept but its final OK withheld, so its sender waits (a relay stuck mid-message). */
  holdReplies(): void;
  /** Sends the withheld OKs and stops withholding. */
  releaseReplies(): void;
  close(): Promise<void>;
}

/**
 * For a test file: a mail server started before its tests and closed after them (as fileDatabase
 * does for a database). Read its fields inside tests.
 */
export function fileMailServer(options: { delayMs?: number } = {}): MailCatcher {
  let catcher: MailCatcher | undefined;
  const started = () => {
    if (!catcher) throw new Error('fileMailServer(): read it inside tests, once the file has started');
    return catcher;
  };
  before(async () => {
    catcher = await startMailServer(0, options);
  });
  after(async () => {
    await catcher?.close();
  });
  return {
    get url() {
      return started().url;
    },
    get messages() {
      return started().messages;
    },
    to: (address) => started().to(address),
    waitFor: (predicate, timeoutMs) => started().waitFor(predicate, timeoutMs),
    holdReplies: () => started().holdReplies(),
    releaseReplies: () => started().releaseReplies(),
    waitForMail: (address, subject, timeoutMs) => started().waitForMail(address, subject, timeoutMs),
    close: () => started().close(),
  };
}

/**
 * `port` 0 (default) picks a free one; a fixed port lets a test bring a server up where the app already points.
 * `delayMs` holds each message's final OK that long after the message is kept (a slow relay; a sender killed
 * in between has delivered it without knowing).
 */
export async function startMailServer(port = 0, options: { delayMs?: number } = {}): Promise<MailCatcher> {
  const messages: ReceivedMail[] = [];
  let withheld: (() => void)[] | null = null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw: Buffer.concat(chunks).toString('utf8') });
        if (withheld) withheld.push(() => callback());
        else if (options.delayMs) setTimeout(() => callback(), options.delayMs);
        else callback();
      });
      stream.on('error', callback);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.server.address() as AddressInfo).port;

  const catcher: MailCatcher = {
    url: `smtp://127.0.0.1:${bound}`,
    messages,
    to: (address) => messages.filter((m) => m.to.includes(address.toLowerCase())),
    waitFor: (predicate, timeoutMs) => waitFor(predicate, timeoutMs),
    waitForMail: (address, subject, timeoutMs) => waitFor(() => catcher.to(address).find((m) => subjectOf(m.raw) === subject), timeoutMs),
    holdReplies: () => void (withheld ??= []),
    releaseReplies() {
      const replies = withheld ?? [];
      withheld = null;
      for (const reply of replies) reply();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return catcher;
}

/** Polls `predicate` every 20 ms until it returns something truthy, which it then returns. */
export async function waitFor<T>(
  predicate: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`waitFor: condition not met within ${timeoutMs} ms`);
    await sleep(20);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Undoes quoted-printable: soft line breaks (=\r\n, =\n) and =XX escapes. */
export function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const source = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < source.length; i++) {
    const hex = source[i] === '=' ? source.slice(i + 1, i + 3) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(source[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function splitHead(entity: string): { headers: Map<string, string>; body: string } {
  const match = /\r?\n\r?\n/.exec(entity);
  const head = match ? entity.slice(0, match.index) : entity;
  const body = match ? entity.slice(match.index + match[0].length) : '';
  const headers = new Map<string, string>();
  // Unfold continuation lines, then read `Name: value`.
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '7bit').toLowerCase()) {
    case 'quoted-printable':
      return decodeQuotedPrintable(body);
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    default:
      return body;
  }
}

/** The header of the top-level message (unfolded), e.g. `subjectOf`. */
export function headerOf(raw: string, name: string): string | undefined {
  return splitHead(raw).headers.get(name.toLowerCase());
}

export const subjectOf = (raw: string) => headerOf(raw, 'subject');

/** Every leaf part of the message, its body decoded (multipart is walked recursively). */
export function partsOf(raw: string): MailPart[] {
  const { headers, body } = splitHead(raw);
  const contentType = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (/^multipart\//i.test(contentType) && boundary) {
    const sections = body.split(`--${boundary}`).slice(1);
    return sections.filter((section) => !section.startsWith('--')).flatMap((section) => partsOf(section.replace(/^\r?\n/, '')));
  }
  return [
    { contentType: contentType.split(';')[0]!.trim().toLowerCase(), body: decodeBody(body, headers.get('content-transfer-encoding')) },
  ];
}

/** The decoded body of the first part of `type` (e.g. text/plain), or undefined. */
export function partOf(raw: string, type: string): string | undefined {
  return partsOf(raw).find((part) => part.contentType === type)?.body;
}

/** The full link (`http...?token=...`) in the text part of a message. */
export function linkFrom(raw: string): string {
  const text = partOf(raw, 'text/plain') ?? decodeQuotedPrintable(raw);
  const link = /https?:\/\/[^\s"'<>]+[?&]token=[^\s"'<>&]+/.exec(text)?.[0];
  if (!link) throw new Error(`no token link in message:\n${raw}`);
  return link;
}

/** The `token=` query parameter of the message's link. */
export function tokenFrom(raw: string): string {
  const token = new URL(linkFrom(raw)).searchParams.get('token');
  if (!token) throw new Error('the link has an empty token');
  return token;
}
