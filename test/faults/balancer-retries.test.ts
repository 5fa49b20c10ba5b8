import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { freePort } from '../../src/lib/ports.js';
import { startHaProxy, type HaProxy } from '../helpers/haproxy.js';
import { sleep } from '../helpers/mail.js';

/**
 * The committed deploy/haproxy/haproxy.cfg retries a write that an instance
 * closed without answering, even when the write's body reached HAProxy a
 * moment after its headers (Node's fetch sends them apart). Unless HAProxy
 * waits for the body before forwarding, it cannot retry such a request and
 * closes the client's kept-alive connection with no answer and no log line:
 * one checkout in a rolling restart under load failed that way.
 *
 * An instance closes a connection after reading a request's headers only in
 * a race (a drain meeting a request on an idle kept-alive connection), so the
 * three servers here are stand-ins that do it on cue: the first POST any of
 * them sees is cut off after its headers; every other request is answered,
 * the POST with the body it received.
 */
let haproxy: HaProxy;
const standIns: http.Server[] = [];
const received: string[] = [];
let cutOff = 0;

before(async () => {
  const targets: string[] = [];
  for (let i = 0; i < 3; i++) {
    const server = http.createServer((req, res) => {
      if (req.url === '/health/ready') return res.end('ready');
      if (req.method === 'POST' && cutOff === 0) {
        cutOff++;
        return req.socket.destroy();
      }
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        if (req.method === 'POST') received.push(body);
        res.end(`${req.method} ${body}`);
      });
    });
    // As the service's (Fastify's default): long, for balancers that idle less than the instance.
    server.keepAliveTimeout = 72_000;
    const port = await freePort();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    standIns.push(server);
    targets.push(`http://127.0.0.1:${port}`);
  }
  haproxy = await startHaProxy(targets);
  await haproxy.waitUntilUp();
});

after(async () => {
  await haproxy?.stop();
  await Promise.all(standIns.map((server) => new Promise((resolve) => server.close(resolve))));
});

test('a POST whose body arrives after its headers, cut off by an instance, is retried on another and answered', async () => {
  const { hostname, port } = new URL(haproxy.url);
  const socket = net.connect(Number(port), hostname);
  let answer = '';
  let closed = false;
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
  socket.on('close', () => (closed = true));
  await new Promise((resolve) => socket.once('connect', resolve));
  const waitFor = async (text: string) => {
    for (const deadline = Date.now() + 5000; !answer.includes(text) && !closed && Date.now() < deadline;) await sleep(20);
  };

  // A kept-alive connection that has carried a request, as a client's pooled connection has.
  socket.write('GET /catalog HTTP/1.1\r\nHost: shop\r\n\r\n');
  await waitFor('GET ');
  // The write: headers now, body a moment later.
  socket.write('POST /orders HTTP/1.1\r\nHost: shop\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\n');
  await sleep(150);
  if (!closed) socket.write('order');
  await waitFor('POST order');
  socket.destroy();

  assert.equal(closed, false, `HAProxy closed the client's connection without an answer; it sent:\n${answer}`);
  assert.match(answer, /HTTP\/1\.1 200[^]*POST order$/);
  assert.equal(cutOff, 1, 'one stand-in cut the POST off');
  assert.deepEqual(received, ['order'], 'the body reached exactly one other instance');
  const retried = Object.values(await haproxy.servers()).reduce((sum, s) => sum + s.wretr + s.wredis, 0);
  assert.ok(retried >= 1, 'HAProxy counts the retry');
});

test("a client is told HAProxy's keep-alive, shorter than HAProxy keeps an idle connection, not the instance's", async () => {
  const config = readFileSync('deploy/haproxy/haproxy.cfg', 'utf8');
  const idleSeconds = Number(/^\s*timeout http-keep-alive (\d+)s$/m.exec(config)?.[1]);
  assert.ok(idleSeconds > 0, 'the committed file sets timeout http-keep-alive in seconds');
  const timeoutOf = (response: Response) => Number(/timeout=(\d+)/.exec(response.headers.get('keep-alive') ?? '')?.[1]);

  const direct = await fetch(`http://127.0.0.1:${(standIns[0]!.address() as { port: number }).port}/catalog`);
  assert.equal(timeoutOf(direct), 72, 'the instance announces its own');
  // Believing 72 s, a client would send on connections HAProxy closes after idleSeconds: a write so sent fails unanswered.
  const through = await fetch(`${haproxy.url}/catalog`);
  assert.equal(through.status, 200);
  const announced = timeoutOf(through);
  assert.ok(
    announced > 0 && announced < idleSeconds,
    `Keep-Alive: ${through.headers.get('keep-alive')}; HAProxy closes after ${idleSeconds} s`,
  );
});
