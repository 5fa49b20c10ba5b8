import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { createMailTransport } from '../../src/email/transport.js';

/** An SMTP server that accepts connections and never says a word. */
async function silentServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

// Without its timeouts the transport would wait nodemailer's default of 30 s: the test's limit fails it first.
test('SMTP: a server that never greets fails the send at the greeting timeout', { timeout: 10_000 }, async () => {
  const server = await silentServer();
  after(() => server.close());
  const transport = createMailTransport(
    { smtpUrl: `smtp://127.0.0.1:${server.port}`, dataDir: mkdtempSync(path.join(tmpdir(), 'mail-')) },
    undefined,
    { connectionTimeout: 1_000, greetingTimeout: 300, socketTimeout: 1_000 },
  );
  await assert.rejects(
    transport.send({ from: 'shop@example.test', to: 'ann@example.test', subject: 'Hello', text: 'Hi', html: '<p>Hi</p>' }),
    /greeting/i,
  );
  transport.close();
});
