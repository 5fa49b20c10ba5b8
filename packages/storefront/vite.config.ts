import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [sveltekit()],
  build: {
    target: 'es2022',
    // Rolldown's note that plugins ran longer than the bundle (SvelteKit's adapter runs after it, by
    // design) reads as a fault to whoever starts the shop; the build's time is no news in its log.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  // Every dependency goes into the server build: build/ then runs with no node_modules beside it (in a
  // deploy without dev dependencies too), and never picks up another version from the repository's root
  // (Fastify's `cookie` 2 beside SvelteKit's `cookie` 0.6).
  ssr: { noExternal: true },
});
