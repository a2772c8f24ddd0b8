/**
 * Renders a page as the app does (Mantine theme, SWR defaults plus the shell's error handling, a
 * router at `path`), with a fresh SWR cache per test.
 */
import type { ReactElement } from 'react';
import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { swrDefaults } from '../api/query';
import { shellSwrConfig } from '../shell/report-error';
import { cssVariablesResolver, theme } from '../theme';

export function renderPage(element: ReactElement, { route = '/', path = '/' }: { route?: string; path?: string } = {}) {
  const router = createMemoryRouter([{ path, element }, { path: '*', element: <p>Elsewhere</p> }], { initialEntries: [route] });
  return render(
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <SWRConfig value={{ ...swrDefaults, ...shellSwrConfig, provider: () => new Map(), dedupingInterval: 0 }}>
        <RouterProvider router={router} />
      </SWRConfig>
    </MantineProvider>,
  );
}
