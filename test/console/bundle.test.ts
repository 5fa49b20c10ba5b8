import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inConsole, signInThroughUi, startConsole } from '../helpers/browser.js';
import { signInAs } from '../helpers/factories.js';

const { t, browser } = await startConsole();

const BUDGET = 300 * 1024;

describe('console: what the first screen costs', () => {
  test('the dashboard, opened cold, loads under 300 KB of compressed JavaScript; other screens load on demand', async (t2) => {
    const { email } = await signInAs(t, 'ADMIN');
    await inConsole(browser, t2, t, async (page, context) => {
      await signInThroughUi(page, email);
      const cold = await context.newPage();
      const scripts = new Map<string, number>();
      cold.on('response', async (response) => {
        if (!response.url().endsWith('.js')) return;
        const headers = await response.allHeaders();
        assert.match(headers['content-encoding'] ?? '', /^(br|gzip)$/, `${response.url()} is sent compressed`);
        // Bytes on the wire: the compressed length the server sent.
        scripts.set(response.url(), Number(headers['content-length']));
      });
      await cold.goto('/admin/');
      await cold.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
      await cold.getByRole('img', { name: /Net revenue per day/ }).waitFor();
      await cold.waitForLoadState('networkidle');
      const total = [...scripts.values()].reduce((sum, size) => sum + size, 0);
      t2.diagnostic(`first screen: ${scripts.size} scripts, ${(total / 1024).toFixed(1)} KB compressed`);
      assert.ok(total > 50 * 1024, 'the measurement saw the scripts');
      assert.ok(total < BUDGET, `first screen loads ${(total / 1024).toFixed(1)} KB of compressed JavaScript (budget 300 KB)`);
      assert.ok(![...scripts.keys()].some((url) => /\/(order|orders|sign-in)-[^/]+\.js$/.test(url)), 'other screens are not loaded up front');
      await cold.close();
    });
  });
});
