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

export function createMailTransport(config: Pick<Config, 'smtpUrl' | 'dataDir'>, clock: Clock = systemClock): MailTransport {
  if (config.smtpUrl) {
    const smtp = nodemailer.createTransport(config.smtpUrl, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
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
