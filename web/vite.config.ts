import { defineConfig } from 'vite';

// `npm run dev` proxies /ws and /api to a server on :18080 (tarneeb serve --port 18080)
export default defineConfig({
  base: './',
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2020' },
  server: {
    proxy: {
      '/ws': { target: 'ws://127.0.0.1:18080', ws: true },
      '/api': 'http://127.0.0.1:18080',
    },
  },
  test: { include: ['tests/**/*.test.ts'], environment: 'node' },
});
