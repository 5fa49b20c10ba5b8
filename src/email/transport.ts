import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../config.js';
import { systemClock, type Clock } from '../lib/clock.js';

/** Sends one message. SMTP in production; without SMTP_URL, each message becomes an .eml file. */
export interface MailTransport {
  send(message: { from: string; to: string; subject: string; text: string; html: string; messageId?: string }): Promise<{ file?: string }>;
  close(): void;
}

/** How long SMTP may take (ms): to connect, to greet, and between bytes; a server that stalls fails the send, which is retried. */
export interface SmtpTimeouts {
  connectionTimeout: number;
  greetingTimeout: number;
  socketTimeout: number;
}
const SMTP_TIMEOUTS: SmtpTimeouts = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

export function createMailTransport(
  config: Pick<Config, 'smtpUrl' | 'dataDir'>,
  clock: Clock = systemClock,
  timeouts: SmtpTimeouts = SMTP_TIMEOUTS,
): MailTransport {
  if (config.smtpUrl) {
    // The timeouts go beside the URL in one object: a second argument would be defaults for every message.
    const smtp = nodemailer.createTransport({ url: config.smtpUrl, ...timeouts });
    return {
      async send(message) {
        await smtp.sendMail(message);
        return {};
      },
      close: () => smtp.close(),
    };
  }
  const directory = path.join(config.dataDir, 'mail');
  const renderer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await renderer.sendMail(message);
      mkdirSync(directory, { recursive: true });
      const safeTo = message.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
      // A random part keeps two messages to one recipient in the same millisecond from sharing a file.
      const file = path.join(
        directory,
        `${clock.now().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}-${safeTo}.eml`,
      );
      writeFileSync(file, info.message as Buffer, { flag: 'wx' });
      return { file };
    },
    close: () => renderer.close(),
  };
}
