import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

// `npm run dev:console` serves the console with hot reload and proxies the API to a running service.
const api = process.env.CONSOLE_API_URL ?? 'http://localhost:3000';

export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  resolve: {
    // @commerce/client (a workspace dependency) is compiled from its source with the console, through the
    // source condition of its exports: one build, no separate client build step.
    conditions: ['@commerce/source', ...defaultClientConditions],
  },
  server: { proxy: { '/api': api, '/media': api } },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 700 },
});
