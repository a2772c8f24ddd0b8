/**
 * The brand is configuration: the SPA is shown to users as "{brand} Platform". Set VITE_BRAND at
 * build time to change it. Everything that shows the brand (page title, sign-in pages, sidebar,
 * index.html through vite.config.ts) reads it from here.
 */
export const DEFAULT_BRAND = 'Prostox';

export function resolveBrand(env: { VITE_BRAND?: string } | undefined): string {
  return env?.VITE_BRAND?.trim() || DEFAULT_BRAND;
}

export function platformTitleOf(brand: string): string {
  return `${brand} Platform`;
}

/**
 * `import.meta.env` exists only in Vite builds; vite.config.ts, scripts and tests import this
 * file from Node, where it is undefined and the default applies.
 */
const viteEnv = (import.meta as ImportMeta & { env?: { VITE_BRAND?: string } }).env;
export const BRAND: string = resolveBrand(viteEnv);
export const PLATFORM_TITLE: string = platformTitleOf(BRAND);
