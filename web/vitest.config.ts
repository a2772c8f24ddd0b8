// Component tests (Vitest + Testing Library in jsdom), beside the components (src/…/X.test.tsx).
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// React's production build has no act(): the component tests need the development one, even
// when the shell that runs them has NODE_ENV=production (set for the SPA build).
process.env.NODE_ENV = 'test';

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
