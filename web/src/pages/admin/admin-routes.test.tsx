/** The admin pages at the spec's routes (SPEC §2), behind the admin sign-in; any other /admin/provider/{page} is not found. */
import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { describe, expect, it } from 'vitest';
import { UserKind } from '@platform/domain';
import { swrDefaults } from '../../api/query';
import { routes } from '../../routes';
import { STORED_USER_KEY, type StoredSessionUser } from '../../session/stored-user';
import { mockApi } from '../../test/mock-api';
import { cssVariablesResolver, theme } from '../../theme';

const admin: StoredSessionUser = {
  portal: 'admin', userId: 1, kind: UserKind.Admin, email: 'admin@demo.test', firstName: 'Alex', lastName: 'Admin',
  currentAccountId: null, currentAccountName: null, currentAccountRole: null, eapPartner: false, international: false, clinicAccess: false, researchAccess: false,
};

function renderAt(path: string) {
  window.localStorage.setItem(STORED_USER_KEY, JSON.stringify(admin));
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <SWRConfig value={{ ...swrDefaults, provider: () => new Map(), dedupingInterval: 0 }}>
        <RouterProvider router={router} />
      </SWRConfig>
    </MantineProvider>,
  );
  return router;
}

describe('admin routes', () => {
  it.each([
    ['/admin/provider/approve', 'Provider approvals'],
    ['/admin/provider/register', 'Register a provider'],
    ['/admin/provider/account/new', 'New account'],
    ['/admin/provider/accounts', 'Accounts'],
    ['/admin/provider/accounts/7', 'Account'],
    ['/admin/provider/users', 'Provider users'],
    ['/admin/provider/lab-toolbox', 'Lab toolbox users'],
    ['/admin/provider/insurance', 'Insurance plans'],
    ['/admin/provider/financial-aid', 'Financial aid'],
    ['/admin/provider/emails', 'Emails'],
    ['/admin/provider/jobs', 'Job monitor'],
    ['/admin/provider/public-health', 'Public health reporting'],
    ['/admin/provider/patient-release', 'Patient release'],
    ['/admin/provider/turnaround-targets', 'Turnaround targets'],
    ['/admin/provider/research-projects', 'Research projects'],
    ['/admin/provider/audit-trail', 'Audit trail'],
  ])('%s is the %s page', async (path, title) => {
    mockApi({});
    renderAt(path);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy();
  });

  it('answers any other /admin/provider/{page} with the not-found page', async () => {
    mockApi({});
    renderAt('/admin/provider/no-such-page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
  });

  it("links the admin's main pages in the sidebar", async () => {
    mockApi({});
    renderAt('/admin/provider/jobs');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Home', '/admin'], ['Approvals', '/admin/provider/approve'], ['Users', '/admin/provider/users'], ['Emails', '/admin/provider/emails'], ['Jobs', '/admin/provider/jobs'],
    ]);
  });

  it('sends someone not signed in to the admin sign-in, then back', async () => {
    mockApi({});
    window.localStorage.clear();
    const router = createMemoryRouter(routes, { initialEntries: ['/admin/provider/users'] });
    render(
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
        <SWRConfig value={{ ...swrDefaults, provider: () => new Map() }}>
          <RouterProvider router={router} />
        </SWRConfig>
      </MantineProvider>,
    );
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/admin/login?next=%2Fadmin%2Fprovider%2Fusers'));
  });
});
