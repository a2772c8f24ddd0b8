import { defineConfig, loadEnv, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { platformTitleOf, resolveBrand } from './src/brand.ts';

/** Fills the brand into index.html (title and site metadata) at build and in dev. */
function brandedIndexHtml(title: string): Plugin {
  return {
    name: 'branded-index-html',
    transformIndexHtml: (html) => html.replaceAll('%PLATFORM_TITLE%', title),
  };
}

export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, import.meta.dirname, 'VITE_');
  const apiTarget = loadEnv(mode, import.meta.dirname, 'API_').API_PROXY_TARGET || 'http://127.0.0.1:3000';
  return {
    plugins: [
      react(),
      brandedIndexHtml(platformTitleOf(resolveBrand(env))),
      // Every text file of the build also as .br and .gz (best compression, once at build time);
      // the API sends the form the browser accepts (api/src/app.ts).
      compression({ algorithms: ['brotliCompress', 'gzip'], exclude: [/\.vite\//], logLevel: 'silent' }),
    ],
    server: {
      proxy: { '/api': { target: apiTarget, changeOrigin: false } },
    },
    build: {
      // The manifest lets scripts/report-bundle-size.ts find the sign-in route's chunks.
      manifest: true,
      rolldownOptions: {
        treeshake: {
          // domain/ is pure rules with no side effects: the SPA takes only the constants and
          // enumerations it imports, never the joi schemas the API validates with.
          moduleSideEffects: [{ test: /[\\/]domain[\\/]src[\\/]/, sideEffects: false }],
        },
      },
    },
  };
});
