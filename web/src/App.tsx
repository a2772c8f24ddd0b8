import { MantineProvider } from '@mantine/core';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { swrDefaults } from './api/query';
import { routes } from './routes';
import { theme } from './theme';

const router = createBrowserRouter(routes);

export function App() {
  return (
    // The theme's CSS variables come as a stylesheet made at build (main.tsx, src/theme-css.ts), not
    // computed by the provider before every first paint.
    <MantineProvider theme={theme} withCssVariables={false} defaultColorScheme="light">
      <SWRConfig value={swrDefaults}>
        <RouterProvider router={router} />
      </SWRConfig>
    </MantineProvider>
  );
}
