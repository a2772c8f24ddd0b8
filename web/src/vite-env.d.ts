/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The brand shown to users ("{brand} Platform"); see src/brand.ts. */
  readonly VITE_BRAND?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
