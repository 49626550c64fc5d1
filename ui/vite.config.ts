import { defineConfig } from 'vitest/config';
import type { IncomingMessage } from 'node:http';
import react from '@vitejs/plugin-react';

/**
 * `vite build` writes ui/dist, which the server serves (with an index.html
 * fallback for client routes). `vite` (dev) proxies /api, including the
 * WebSocket, to a running server: SLEDGE_API=http://127.0.0.1:8080 by default.
 */
const api = process.env['SLEDGE_API'] ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 900,
    rollupOptions: {
      output: {
        manualChunks(id) {
          if (id.includes('node_modules/echarts') || id.includes('node_modules/zrender')) return 'echarts';
          if (id.includes('node_modules/react') || id.includes('node_modules/scheduler')) return 'react';
          return undefined;
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': {
        target: api,
        ws: true,
        changeOrigin: true,
        // The server refuses state-changing requests and sockets whose Origin is not
        // its own Host (cross-site guard): a request from this dev page is presented
        // as the server's own origin. Requests from any other origin keep theirs.
        configure: (proxy) => {
          const own = (req: IncomingMessage, set: (v: string) => void) => {
            if (req.headers.origin && req.headers.host && new URL(req.headers.origin).host === req.headers.host) set(new URL(api).origin);
          };
          proxy.on('proxyReq', (proxyReq, req) => own(req, (v) => proxyReq.setHeader('origin', v)));
          proxy.on('proxyReqWs', (proxyReq, req) => own(req, (v) => proxyReq.setHeader('origin', v)));
        },
      },
    },
  },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    // The shipped workloads register themselves here, as the app's entry does.
    setupFiles: ['src/workloads/index.ts'],
  },
});
