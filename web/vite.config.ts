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

/**
 * Mantine's stylesheet follows its components into the chunks (a page loads only the CSS of the
 * components it renders). Every Mantine component reads its class names from a `<Name>.module.mjs`
 * whose CSS is `styles/<Name>.layer.css` (@mantine/notifications: one stylesheet): at build this
 * plugin adds that CSS import to the class-name module, so the CSS lands in whichever chunk the
 * component does, after the CSS of the components it is built on (imported first). The `.layer`
 * forms put Mantine in the `mantine` cascade layer: our own CSS wins over it whatever order the
 * chunks' stylesheets arrive in. main.tsx imports only the global styles. The dev server pre-bundles Mantine (no per-module transform): there main.tsx gets
 * the whole stylesheets instead.
 */
function mantineCssWithComponents(): Plugin {
  let building = true;
  const CLASS_NAMES = /[\\/]@mantine[\\/](core|notifications)[\\/]esm[\\/](?:.*[\\/])?([A-Za-z]+)\.module\.mjs$/;
  const afterDirective = (code: string, line: string) => code.replace(/^("use client";\s*)?/, (directive) => `${directive}${line}\n`);
  return {
    name: 'mantine-css-with-components',
    configResolved: (config) => {
      building = config.command === 'build';
    },
    transform(code, id) {
      if (!building) {
        return id.endsWith('/src/main.tsx')
          ? afterDirective(code, "import '@mantine/core/styles.layer.css'; import '@mantine/notifications/styles.layer.css';")
          : null;
      }
      const match = CLASS_NAMES.exec(id);
      if (!match) return null;
      const [, pkg, name] = match;
      const css = pkg === 'core' ? `@mantine/core/styles/${name}.layer.css` : '@mantine/notifications/styles.layer.css';
      return { code: afterDirective(code, `import '${css}';`), map: null };
    },
  };
}

export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, import.meta.dirname, 'VITE_');
  const apiTarget = loadEnv(mode, import.meta.dirname, 'API_').API_PROXY_TARGET || 'http://127.0.0.1:3000';
  return {
    plugins: [
      react(),
      mantineCssWithComponents(),
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
