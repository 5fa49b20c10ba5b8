import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// `npm run dev:console` serves the console with hot reload and proxies the API to a running service.
const api = process.env.CONSOLE_API_URL ?? 'http://localhost:3000';

export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  resolve: {
    // The client is compiled from source with the console: one build, no separate client build step.
    alias: { '@commerce/client': fileURLToPath(new URL('../client/src/index.ts', import.meta.url)) },
  },
  server: { proxy: { '/api': api, '/media': api } },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 700 },
});
