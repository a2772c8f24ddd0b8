import { defineConfig, loadEnv, runnerImport, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import path from 'node:path';
import { platformTitleOf, resolveBrand } from './src/brand.ts';
import { ROUTE_PRELOADS } from './src/route-preloads.ts';

/** Fills the brand into index.html (title and site metadata) at build and in dev. */
function brandedIndexHtml(title: string): Plugin {
  return {
    name: 'branded-index-html',
    transformIndexHtml: (html) => html.replaceAll('%PLATFORM_TITLE%', title),
  };
}

/**
 * `virtual:theme-variables.css`: the theme's CSS variables, computed here once (src/theme-css.ts).
 * The theme imports the domain's breakpoints, TypeScript this config cannot import itself: Vite's
 * module runner loads it.
 */
function themeVariablesStylesheet(): Plugin {
  const id = 'virtual:theme-variables.css';
  const resolved = `\0${id}`;
  const themeCss = path.resolve(import.meta.dirname, 'src/theme-css.ts');
  return {
    name: 'theme-variables-stylesheet',
    resolveId: (source) => (source === id ? resolved : null),
    load: async (loading) => {
      if (loading !== resolved) return null;
      const { module } = await runnerImport<typeof import('./src/theme-css.ts')>(themeCss, { configFile: false, logLevel: 'silent' });
      return module.themeVariablesCss();
    },
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

/**
 * dist/.vite/route-preloads.json: for each path pattern of src/route-preloads.ts, the scripts and
 * stylesheets its lazy route module loads that index.html does not already (the route chunk and
 * the chunks it imports, with their CSS), and the page's first API request where one is named.
 * The API reads it to name them in index.html.
 */
function routePreloadsFile(): Plugin {
  let base = '/';
  return {
    name: 'route-preloads-file',
    apply: 'build',
    configResolved: (config) => {
      base = config.base;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (fileName: string, seen = new Set<string>()): Set<string> => {
        if (seen.has(fileName)) return seen;
        seen.add(fileName);
        for (const imported of byFile.get(fileName)?.imports ?? []) closure(imported, seen);
        return seen;
      };
      const entry = chunks.find((c) => c.isEntry);
      if (!entry) this.error('route-preloads: the bundle has no entry chunk');
      const loadedByIndex = closure(entry.fileName);
      const cssOf = (fileName: string) => [...(byFile.get(fileName)?.viteMetadata?.importedCss ?? [])];
      const loadedCss = new Set([...loadedByIndex].flatMap(cssOf));
      const routes = ROUTE_PRELOADS.map(({ pattern, module, fetch }) => {
        const id = path.resolve(import.meta.dirname, module);
        // The chunk that holds the module (its own, or the group's of vite's codeSplitting below).
        const chunk = chunks.find((c) => id in c.modules);
        if (!chunk || loadedByIndex.has(chunk.fileName)) this.error(`route-preloads: ${module} is not a lazy route module of the bundle`);
        const files = [...closure(chunk.fileName)].filter((f) => !loadedByIndex.has(f));
        return {
          pattern: pattern.source,
          scripts: files.map((f) => `${base}${f}`),
          styles: [...new Set(files.flatMap(cssOf))].filter((f) => !loadedCss.has(f)).map((f) => `${base}${f}`),
          ...(fetch ? { fetch } : {}),
        };
      });
      this.emitFile({ type: 'asset', fileName: '.vite/route-preloads.json', source: `${JSON.stringify(routes, null, 2)}\n` });
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
      themeVariablesStylesheet(),
      brandedIndexHtml(platformTitleOf(resolveBrand(env))),
      routePreloadsFile(),
      // Every text file of the build also as .br and .gz (best compression, once at build time);
      // the API sends the form the browser accepts (api/src/app.ts).
      compression({ algorithms: ['brotliCompress', 'gzip'], exclude: [/\.vite\//], logLevel: 'silent' }),
    ],
    server: {
      proxy: { '/api': { target: apiTarget, changeOrigin: false } },
    },
    build: {
      // The manifest lets scripts/report-bundle-size.ts find index.html's chunks.
      manifest: true,
      rolldownOptions: {
        output: {
          codeSplitting: {
            // Everything index.html needs before the first route renders in one chunk (and so one
            // stylesheet): left to itself the bundler cuts it into ten scripts and seven
            // stylesheets (modules the lazy pages share), and on a phone's slow network each extra
            // request on the way to the first paint costs a round trip (Lighthouse, issue 14).
            //
            // Likewise each page a phone opens first (sign-in, the patient's result, the patient's
            // order) gets one chunk holding its route module and everything it imports that no
            // earlier group holds: one script and one stylesheet instead of up to twenty small
            // shared ones. A later page takes what it shares from the earlier one's chunk.
            groups: [
              { name: 'shell', tags: ['$initial'], priority: 4 },
              { name: 'sign-in', test: /[\\/]src[\\/]pages[\\/]auth[\\/]index\.ts$/, priority: 3 },
              { name: 'patient-result', test: /[\\/]src[\\/]pages[\\/]reports[\\/]index\.ts$/, priority: 2 },
              { name: 'patient-order', test: /[\\/]src[\\/]pages[\\/]patient-portal[\\/]index\.ts$/, priority: 1 },
            ],
          },
        },
        treeshake: {
          // domain/ is pure rules with no side effects: the SPA takes only the constants and
          // enumerations it imports, never the joi schemas the API validates with.
          moduleSideEffects: [{ test: /[\\/]domain[\\/]src[\\/]/, sideEffects: false }],
        },
      },
    },
  };
});
