/**
 * `npm run docs:screenshot [-- <base URL>]`: the README's picture of the console's dashboard, taken
 * from a running service with the demo store (`npm run seed`, then `npm start`), signed in as the
 * demo SUPER_ADMIN, in the Chromium the browser tests use.
 */
import path from 'node:path';
import { launchBrowser } from '../test/helpers/chromium.js';

const base = process.argv[2] ?? 'http://localhost:3000';
const out = path.resolve('docs/images/console-dashboard.png');

const browser = await launchBrowser();
try {
  const page = await browser.newPage({ baseURL: base, viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' });
  await page.goto('/admin/sign-in');
  await page.getByRole('textbox', { name: 'Email' }).fill('admin@demo.store');
  await page.getByRole('textbox', { name: 'Password' }).fill('Demo-Pass-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('img', { name: /Net revenue per day/ }).waitFor();
  await page.getByRole('heading', { name: 'Top products' }).waitFor();
  await page.screenshot({ path: out });
  console.log(`wrote ${path.relative(process.cwd(), out)}`);
} finally {
  await browser.close();
}
