/**
 * The web client's build: `client/web/` is Vite's root, the output goes to `client/web/dist/`
 * (not committed) unless an outDir is given. `npm start` builds it on start (infra/local/site.ts),
 * the stack builds it at synthesis (infra/site.ts), and `npm run web:build` does it by hand.
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { apiPathPrefixes } from '../../infra/api-paths.js';

/** Where `npm start` serves, for `npm run web:dev`: the port it reads from PORT (3000 by default). */
const API = `http://127.0.0.1:${process.env.PORT || 3000}`;

export const WEB_ROOT = dirname(fileURLToPath(import.meta.url));

export default defineConfig(({ command }) => ({
  root: WEB_ROOT,
  base: '/',
  // A build says only what is wrong (npm start builds at every start); `npm run web:dev` says where
  // it serves.
  logLevel: command === 'serve' ? 'info' : 'warn',
  // Preact's automatic JSX runtime (the tsconfig beside this file says the same to tsc).
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Browsers of the last few years all load ES modules with <link rel=modulepreload>: no polyfill.
    modulePreload: { polyfill: false },
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
  },
  server: {
    // `npm run web:dev`: the page with hot reload, the API from `npm start` on its port (PORT, as
    // npm start reads it; 3000 by default), and with it the page's sign-in config and the
    // development issuer's token route.
    proxy: {
      ...Object.fromEntries([...apiPathPrefixes(), '/config.json'].map((prefix) => [prefix, API])),
      // The runtime's own routes answer only requests addressed to it and from its own page
      // (infra/local/own-routes.ts): this page's requests go as if from there, another site's do not.
      '/dev': {
        target: API,
        changeOrigin: true,
        configure: (proxy) =>
          proxy.on('proxyReq', (forwarded, request) => {
            if (request.headers.origin === `http://${request.headers.host}`) forwarded.removeHeader('origin');
          }),
      },
    },
  },
}));
