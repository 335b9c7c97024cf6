import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress.ts';

/** Where `npm run dev` sends API calls: a Signpost server started with `npm start` (or SIGNPOST_URL). */
const server = process.env['SIGNPOST_URL'] ?? 'http://localhost:3000';

export default defineConfig({
  base: '/app/',
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The strict Content-Security-Policy of /app allows no inline script: keep every module a file.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: server, changeOrigin: false } },
  },
});
