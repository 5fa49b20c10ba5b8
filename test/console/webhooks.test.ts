import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { inConsole, signInThroughUi, startConsole } from '../helpers/browser.js';
import { checkout, sellableVariant, shopper } from '../helpers/commerce.js';
import { signInAs, signUp } from '../helpers/factories.js';
import { createEndpoint, LOCAL_RECEIVERS, startReceiver, verify, WEBHOOKS } from '../helpers/webhooks.js';

// Receivers on 127.0.0.1, polled often; a failed attempt is not retried, so a failure is FAILED at once.
const { t, browser } = await startConsole({
  ...LOCAL_RECEIVERS,
  EVENT_POLL_INTERVAL_MS: '20',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_RETRY_FOR: '0',
  RATE_LIMIT_REGISTER: '0',
  RATE_LIMIT_CHECKOUT: '0',
});
const receiver = await startReceiver();
after(() => receiver.close());

/** The one secret the console shows, from its window, which is then closed. */
async function secretShown(page: Page): Promise<string> {
  const dialog = page.getByRole('dialog', { name: 'The signing secret' });
  const secret = (await dialog.getByLabel('Signing secret').innerText()).trim();
  assert.match(secret, /^whsec_/);
  await dialog.getByRole('button', { name: 'I have stored it' }).click();
  await dialog.waitFor({ state: 'detached' });
  return secret;
}

describe('console: webhooks', () => {
  test('an endpoint is added with its secret shown once; a test event and an order arrive signed and show in its log; the secret rotates with an overlap; pause, edit, delete', async (t2) => {
    const owner = await signInAs(t, 'SUPER_ADMIN');
    const admin = await signInAs(t, 'ADMIN');
    const { variantId } = await sellableVariant(admin.client, { name: 'Hooked mug', stock: 10 });
    const url = `${receiver.url}/shop-events`;
    let endpointId = '';

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, owner.email);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
      await page.getByRole('link', { name: 'Add endpoint' }).click();

      // Refused before sending: no address, no event.
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await page.getByText('An address starting with https://').waitFor();
      await page.getByText('Pick at least one event').waitFor();

      await page.getByRole('textbox', { name: 'URL' }).fill(url);
      await page.getByRole('textbox', { name: 'Description' }).fill('Warehouse');
      await page.getByRole('checkbox', { name: 'order.placed' }).check();
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const secret = await secretShown(page);
      await page.getByRole('heading', { level: 1, name: url }).waitFor();
      endpointId = new URL(page.url()).pathname.split('/').pop()!;
      // Shown once: the screen, opened again, does not hold it.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: url }).waitFor();
      assert.equal(await page.getByText(secret).count(), 0);

      // A test event, and an order placed in the store, arrive signed with that secret and show in the log.
      await page.getByRole('button', { name: 'Send test event' }).click();
      const testEvent = await receiver.waitFor((arrivals) => arrivals.find((a) => a.event?.type === 'webhook.test'));
      assert.equal(verify(secret, testEvent).data.endpoint_public_id, endpointId);
      const buyer = await shopper(t, [{ variantId, quantity: 1 }]);
      const order = (await checkout(buyer.client, buyer.addressId)).body.data;
      const placed = await receiver.waitFor((arrivals) => arrivals.find((a) => a.event?.type === 'order.placed'));
      assert.equal(verify(secret, placed).data.order.order_number, order.order_number);
      const log = page.getByRole('table', { name: 'Deliveries' });
      for (const arrival of [testEvent, placed]) {
        const row = log.getByRole('row', { name: new RegExp(arrival.id) });
        await row.getByText('Succeeded').waitFor();
        assert.match(await row.innerText(), /HTTP 204/);
      }
      await log
        .getByRole('row', { name: new RegExp(placed.id) })
        .getByRole('button', { name: /^Details of/ })
        .click();
      await page.getByRole('dialog', { name: 'Delivery' }).getByText(order.order_number).first().waitFor();
      await page.keyboard.press('Escape');

      // A new secret; the old one keeps signing beside it for a day, so a receiver holding either accepts.
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      const rotation = page.getByRole('dialog', { name: 'Rotate the signing secret' });
      await rotation.getByRole('button', { name: 'Make a new secret' }).click();
      await page
        .getByRole('dialog', { name: 'The signing secret' })
        .getByText(/The previous secret keeps signing beside this one until/)
        .waitFor();
      const rotated = await secretShown(page);
      assert.notEqual(rotated, secret);
      await page.getByText(/The previous secret signs beside the current one until/).waitFor();
      await page.getByRole('button', { name: 'Send test event' }).click();
      const afterRotation = await receiver.waitFor((arrivals) => arrivals.filter((a) => a.event?.type === 'webhook.test')[1]);
      verify(rotated, afterRotation);
      verify(secret, afterRotation);

      // Paused, it receives nothing; its events wait.
      await page.getByRole('button', { name: 'Pause' }).click();
      await page.getByRole('main').getByText('Paused', { exact: true }).first().waitFor();
      const before = receiver.arrivals.length;
      const second = await shopper(t, [{ variantId, quantity: 1 }]);
      const waiting = (await checkout(second.client, second.addressId)).body.data;
      await page.getByText('1 event waiting').waitFor();
      assert.equal(receiver.arrivals.length, before);
      await page.getByRole('button', { name: 'Resume' }).click();
      // The answer re-keys the settings form (its values as saved): edit only after it has come.
      await page.getByRole('button', { name: 'Pause' }).waitFor();
      const resumed = await receiver.waitFor((arrivals) =>
        arrivals.find((a) => a.event?.type === 'order.placed' && a.event.data.order.order_number === waiting.order_number),
      );
      verify(rotated, resumed);

      // Edited: the events it wants and its description.
      await page.getByRole('textbox', { name: 'Description' }).fill('Warehouse and accounting');
      await page.getByRole('checkbox', { name: 'order.cancelled' }).check();
      await page.getByRole('button', { name: 'Save endpoint' }).click();
      await page.getByText('Endpoint saved').waitFor();
      const saved = (await owner.client.get(`${WEBHOOKS}/endpoints/${endpointId}`)).body.data;
      assert.deepEqual(
        [saved.description, [...saved.event_types].sort()],
        ['Warehouse and accounting', ['order.cancelled', 'order.placed']],
      );

      await page.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
      await page.getByText('No endpoint yet').waitFor();
    });
    assert.equal((await owner.client.get(`${WEBHOOKS}/endpoints/${endpointId}`)).status, 404);
  });

  test('the log is filtered by status and event; a failed delivery is sent again, one or every one since a day, with the same webhook-id', async (t2) => {
    const owner = await signInAs(t, 'SUPER_ADMIN');
    const failing = await startReceiver();
    t2.after(() => failing.close());
    const endpoint = await createEndpoint(owner.client, failing.url, ['customer.registered']);
    failing.answer = () => ({ status: 500, body: 'down for maintenance' });
    const customers = [await signUp(t), await signUp(t)];
    await failing.waitFor((arrivals) => arrivals.length >= 2 || undefined);

    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, owner.email, `/admin/webhooks/${endpoint.public_id}`);
      const log = page.getByRole('table', { name: 'Deliveries' });
      await page.getByRole('combobox', { name: 'Status' }).click();
      await page.getByRole('option', { name: 'Failed' }).click();
      await page.waitForURL(/status=FAILED/);
      await page.getByText('1–2 of 2').waitFor();
      assert.match(await log.getByRole('row').nth(1).innerText(), /HTTP 500[\s\S]*down for maintenance/);

      // A test event fails too; the event filter leaves it out.
      await page.getByRole('button', { name: 'Send test event' }).click();
      await page.getByText('1–3 of 3').waitFor();
      await page.getByRole('combobox', { name: 'Event' }).click();
      await page.getByRole('option', { name: 'customer.registered' }).click();
      await page.waitForURL(/event=customer\.registered/);
      await page.getByText('1–2 of 2').waitFor();
      await page.getByRole('button', { name: 'Clear filters' }).click();

      failing.answer = () => ({ status: 204 });
      const [first, second] = failing.arrivals.filter((a) => a.event?.type === 'customer.registered');
      await log.getByRole('button', { name: `Send customer.registered ${first!.id} again` }).click();
      await log
        .getByRole('row', { name: new RegExp(first!.id) })
        .getByText('Succeeded')
        .waitFor();
      const again = failing.received().filter((a) => a.id === first!.id);
      assert.equal(again.length, 1);
      verify(endpoint.secret, again[0]!);

      // Every one that failed since today: the other registration and the test event.
      await page.getByRole('button', { name: 'Send the failed ones again' }).click();
      await page.getByText('2 failed deliveries queued again').waitFor();
      await log
        .getByRole('row', { name: new RegExp(second!.id) })
        .getByText('Succeeded')
        .waitFor();
      await log
        .getByRole('row', { name: /webhook\.test/ })
        .getByText('Succeeded')
        .waitFor();
    });
    assert.deepEqual(
      failing
        .received()
        .filter((a) => a.event?.type === 'customer.registered')
        .map((a) => a.event.data.customer.email)
        .sort(),
      customers.map((c) => c.email).sort(),
    );
  });

  test('each event is described as the API’s catalog says, its field names set as code rather than in backticks', async (t2) => {
    const owner = await signInAs(t, 'SUPER_ADMIN');
    await inConsole(browser, t2, t, async (page) => {
      await signInThroughUi(page, owner.email, '/admin/webhooks/new');
      const backInStock = page.getByRole('checkbox', { name: 'inventory.back_in_stock' });
      await backInStock.waitFor();
      const events = page.getByRole('group', { name: 'Events' });
      assert.equal(await events.getByText('`', { exact: false }).count(), 0, 'no backtick shows');
      await events.locator('code', { hasText: /^stock_status$/ }).waitFor();
      await events.locator('code', { hasText: /^resubmitted$/ }).waitFor();
      await events.getByText('(from OUT_OF_STOCK; stock_status says whether it is low)').waitFor();
    });
  });
});
