/**
 * `npm run docs:screenshot [-- <base URL>]`: the README's pictures, taken from a running service
 * with the demo store (`npm run seed`, then `npm start`) in the Chromium the browser tests use: the
 * console's dashboard (signed in as the demo SUPER_ADMIN), and the storefront's home page and a
 * product page at a desktop's width and a phone's.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../test/helpers/chromium.js';

const base = process.argv[2] ?? 'http://localhost:3000';
const images = path.resolve('docs/images');

async function shoot(page: Page, name: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  const out = path.join(images, name);
  await page.screenshot({ path: out });
  console.log(`wrote ${path.relative(process.cwd(), out)}`);
}

const browser = await launchBrowser();
try {
  const page = await browser.newPage({ baseURL: base, viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' });
  await page.goto('/admin/sign-in');
  await page.getByRole('textbox', { name: 'Email' }).fill('admin@demo.store');
  await page.getByRole('textbox', { name: 'Password' }).fill('Demo-Pass-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('img', { name: /Net revenue per day/ }).waitFor();
  await page.getByRole('heading', { name: 'Top products' }).waitFor();
  await shoot(page, 'console-dashboard.png');

  // The shop as a visitor sees it: a fresh page, no session.
  const shop = await browser.newPage({ baseURL: base, viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' });
  await shop.goto('/');
  await shoot(shop, 'storefront-home.png');
  // The best-rated product: pictures, a rating and reviews.
  await shop.goto('/search?sort=-rating');
  await shop.locator('article.card a').first().click();
  await shop.getByRole('heading', { level: 1 }).waitFor();
  const productPath = new URL(shop.url()).pathname;
  await shoot(shop, 'storefront-product.png');
  const phone = await browser.newPage({
    baseURL: base,
    viewport: { width: 360, height: 740 },
    deviceScaleFactor: 2,
    reducedMotion: 'reduce',
  });
  await phone.goto(productPath);
  await shoot(phone, 'storefront-product-phone.png');
} finally {
  await browser.close();
}
