/**
 * The Chromium inside @sparticuz/chromium, so browser tests need nothing beyond `npm install`.
 * A test run shares one browser (scripts/test/resources.ts starts it and passes its address in
 * BROWSER_WS_ENDPOINT); a file run on its own, or a script, launches its own.
 */
import chromium from '@sparticuz/chromium';
import { chromium as playwright, type Browser, type BrowserServer, type LaunchOptions } from 'playwright-core';

// The package's flags are tuned for serverless sandboxes; these would weaken exactly what the
// console relies on (same-origin rules, CSP), or make one crashed page take the browser down.
const UNWANTED = [
  '--disable-web-security',
  '--allow-running-insecure-content',
  '--disable-site-isolation-trials',
  '--single-process',
  '--no-zygote',
];
// The package draws through SwiftShader, a GPU emulated on the CPU, which a serverless host needs for
// WebGL. Nothing here draws WebGL (the console's charts are SVG), and Chromium's own software
// compositor draws the same pages for about 30% less of the browser's CPU time.
const EMULATED_GPU = [
  '--use-gl=angle',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--ignore-gpu-blocklist',
  '--in-process-gpu',
];
// This machine has no network beyond loopback: no background connections to Google's services.
const QUIET = ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

/** The Chromium's path and flags (also for Lighthouse in the bench, which launches it its own way). */
export async function launchOptions(): Promise<LaunchOptions & { executablePath: string; args: string[] }> {
  const executablePath = process.env.CHROMIUM_PATH ?? (await chromium.executablePath());
  const args = [...chromium.args.filter((arg) => !UNWANTED.includes(arg) && !EMULATED_GPU.includes(arg)), '--disable-gpu', ...QUIET];
  return { executablePath, args, headless: true };
}

/** The run's shared browser when there is one, else a browser of this process's own. Closing it ends only this process's use. */
export async function launchBrowser(): Promise<Browser> {
  const shared = process.env.BROWSER_WS_ENDPOINT;
  if (shared) return playwright.connect(shared);
  return playwright.launch(await launchOptions());
}

/** A browser other processes connect to (`wsEndpoint()`). */
export async function launchBrowserServer(): Promise<BrowserServer> {
  return playwright.launchServer(await launchOptions());
}
