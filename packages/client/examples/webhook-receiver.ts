// A receiver for the store's webhooks: verify the signature, drop repeats, then act on typed events.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { WebhookEvent } from '@commerce/client';

const secret = process.env.WEBHOOK_SECRET!; // whsec_..., shown once when the endpoint was created or its secret rotated
const seen = new Set<string>(); // use your database: the same webhook-id can come twice (at least once delivery)

// #region readme
/**
 * Standard Webhooks: one of the `v1,` signatures is HMAC-SHA256 of `${id}.${timestamp}.${body}` with the secret, and the
 * timestamp is recent. (Or let a Standard Webhooks library do it: `new Webhook(secret).verify(body, headers)` from `standardwebhooks`.)
 */
function verified(id: string, timestamp: string, signatures: string, body: string): boolean {
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = Buffer.from('v1,' + createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64'));
  return signatures.split(' ').some((signature) => signature.length === expected.length && timingSafeEqual(Buffer.from(signature), expected));
}

function handle(event: WebhookEvent): void {
  switch (event.type) {
    case 'order.placed':
      for (const line of event.data.order.items) console.log(`pick ${line.quantity} x ${line.sku} for ${event.data.order.order_number}`);
      break;
    case 'inventory.low_stock':
      console.log(`reorder ${event.data.sku}: ${event.data.quantity_available} left`);
      break;
    default:
      break; // types this receiver does not act on
  }
}

createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  request.on('end', () => {
    const header = (name: string) => String(request.headers[name] ?? '');
    if (!verified(header('webhook-id'), header('webhook-timestamp'), header('webhook-signature'), body)) {
      response.writeHead(401).end();
      return;
    }
    if (!seen.has(header('webhook-id'))) handle(JSON.parse(body) as WebhookEvent);
    seen.add(header('webhook-id'));
    response.writeHead(204).end(); // a 2xx within 10 s, or the delivery is retried
  });
}).listen(8080);
// #endregion
