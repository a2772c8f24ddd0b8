// Component tests (Vitest + Testing Library in jsdom), beside the components (src/…/X.test.tsx).
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    // Two cores, shared: a small pool.
    pool: 'threads',
    maxWorkers: 2,
    testTimeout: 15_000,
  },
});
