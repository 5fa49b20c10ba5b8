import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  accessibilityProblems,
  describeViolations,
  inConsole,
  keepScreenshot,
  openInApp,
  RESULTS_DIR,
  signInThroughUi,
  startConsole,
  TABLET,
} from '../helpers/browser.js';
import { checkout, sellableVariant, shopper } from '../helpers/commerce.js';
import { signInAs } from '../helpers/factories.js';

const { t, browser } = await startConsole({ RATE_LIMIT_REGISTER: '0' });
const { orderId, productId, variantId, customerId, couponId, endpointId } = await (async () => {
  const admin = await signInAs(t, 'ADMIN');
  const owner = await signInAs(t, 'SUPER_ADMIN');
  // A host that never resolves: its test event's delivery fails, as a receiver that is down does.
  const endpoint = await owner.client.post('/api/v1/admin/webhooks/endpoints', {
    url: 'https://hooks.invalid/axe',
    event_types: ['order.placed'],
  });
  await owner.client.post(`/api/v1/admin/webhooks/endpoints/${endpoint.body.data.public_id}/test`);
  const { variantId, productId } = await sellableVariant(admin.client, { stock: 10, name: 'Linen napkin' });
  const coupon = await admin.client.post('/api/v1/admin/coupons', { code: 'AXE10', discount_type: 'PERCENTAGE', discount_value: '10' });
  const buyer = await shopper(t, [{ variantId, quantity: 1 }]);
  const order = (await checkout(buyer.client, buyer.addressId, { coupon_code: 'AXE10' })).body.data;
  return {
    orderId: order.public_id as string,
    productId,
    variantId,
    customerId: buyer.user.public_id as string,
    couponId: coupon.body.data.public_id as string,
    endpointId: endpoint.body.data.public_id as string,
  };
})();

/** Each screen, once loaded: no serious or critical WCAG 2.1 AA problem. */
const SCREENS: { path: () => string; ready: (page: Page) => Promise<void> }[] = [
  { path: () => '/admin/', ready: (page) => page.getByRole('img', { name: /Net revenue per day/ }).waitFor() },
  { path: () => '/admin/orders', ready: (page) => page.getByRole('table', { name: 'Orders' }).waitFor() },
  { path: () => `/admin/orders/${orderId}`, ready: (page) => page.getByRole('heading', { name: 'History' }).waitFor() },
  { path: () => '/admin/customers', ready: (page) => page.getByRole('table', { name: 'Accounts' }).waitFor() },
  { path: () => '/admin/account', ready: (page) => page.getByRole('table', { name: 'Your sessions' }).waitFor() },
  { path: () => '/admin/audit', ready: (page) => page.getByRole('table', { name: 'Audit entries' }).waitFor() },
  { path: () => '/admin/inventory', ready: (page) => page.getByRole('table', { name: 'Inventory records' }).waitFor() },
  { path: () => '/admin/reviews', ready: (page) => page.getByText('Nothing waiting').waitFor() },
  { path: () => '/admin/coupons/new', ready: (page) => page.getByRole('button', { name: 'Create coupon' }).waitFor() },
  { path: () => '/admin/products', ready: (page) => page.getByRole('table', { name: 'Products' }).waitFor() },
  { path: () => '/admin/products/new', ready: (page) => page.getByRole('button', { name: 'Create product' }).waitFor() },
  { path: () => '/admin/categories', ready: (page) => page.getByRole('button', { name: 'Create category' }).waitFor() },
  { path: () => '/admin/coupons', ready: (page) => page.getByRole('table', { name: 'Coupons' }).waitFor() },
  { path: () => '/admin/money', ready: (page) => page.getByRole('table', { name: 'Profit and loss by month' }).waitFor() },
  { path: () => `/admin/products/${productId}`, ready: (page) => page.getByRole('table', { name: 'Variants' }).waitFor() },
  { path: () => `/admin/inventory/${variantId}`, ready: (page) => page.getByRole('table', { name: 'Stock movements' }).waitFor() },
  { path: () => `/admin/customers/${customerId}`, ready: (page) => page.getByRole('table', { name: /^Orders of / }).waitFor() },
  { path: () => `/admin/coupons/${couponId}`, ready: (page) => page.getByRole('table', { name: 'Orders that used AXE10' }).waitFor() },
  { path: () => '/admin/import-export', ready: (page) => page.getByRole('button', { name: 'Export orders' }).waitFor() },
  { path: () => '/admin/invitations', ready: (page) => page.getByRole('button', { name: 'Send invitation' }).waitFor() },
  { path: () => '/admin/webhooks', ready: (page) => page.getByRole('table', { name: 'Webhook endpoints' }).waitFor() },
  { path: () => '/admin/webhooks/new', ready: (page) => page.getByRole('checkbox', { name: 'order.placed' }).waitFor() },
  { path: () => '/admin/no-such-screen', ready: (page) => page.getByRole('link', { name: 'Go to the dashboard' }).waitFor() },
  {
    path: () => `/admin/webhooks/${endpointId}`,
    ready: (page) => page.getByRole('table', { name: 'Deliveries' }).getByText('webhook.test').waitFor(),
  },
];

describe('console: accessibility (axe-core, WCAG 2.1 AA)', () => {
  test('the sign-in screen', async (t2) => {
    await inConsole(browser, t2, t, async (page) => {
      await page.goto('/admin/sign-in');
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      const problems = await accessibilityProblems(page);
      assert.deepEqual(problems, [], describeViolations(problems));
    });
  });

  for (const viewport of [undefined, TABLET]) {
    test(`every screen, ${viewport ? 'on a tablet' : 'on a laptop'}`, async (t2) => {
      const { email } = await signInAs(t, 'SUPER_ADMIN');
      await inConsole(
        browser,
        t2,
        t,
        async (page) => {
          await signInThroughUi(page, email);
          const found: string[] = [];
          // A screenshot of each screen at this size, for people to look at (TEST_SCREENSHOTS=1).
          const shots = path.join(RESULTS_DIR, 'screens', viewport ? 'tablet' : 'laptop');
          for (const screen of SCREENS) {
            await openInApp(page, screen.path());
            await screen.ready(page);
            const name =
              screen
                .path()
                .replace(/^\/admin\/?/, '')
                .replace(/(prd|var|usr|cpn|ord|whe)_\w+/, '$1')
                .replace(/\W+/g, '-') || 'dashboard';
            await keepScreenshot(page, path.join(shots, `${name}.png`));
            const problems = await accessibilityProblems(page);
            if (problems.length > 0) found.push(`${screen.path()}:\n${describeViolations(problems)}`);
          }
          assert.deepEqual(found, [], found.join('\n\n'));
        },
        viewport,
      );
    });
  }
});
