import { MantineProvider } from '@mantine/core';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { swrDefaults } from './api/query';
import { routes } from './routes';
import { cssVariablesResolver, theme } from './theme';

const router = createBrowserRouter(routes);

export function App() {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <SWRConfig value={swrDefaults}>
        <RouterProvider router={router} />
      </SWRConfig>
    </MantineProvider>
  );
}
