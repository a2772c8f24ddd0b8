import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ErrorModalHost } from '../../components/ErrorModalHost';
import { mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { AdminHomePage } from './AdminHomePage';

const me = { user: { id: 1, kind: 'admin', email: 'admin@demo.test', firstName: 'Alex', lastName: 'Admin' }, accounts: [], currentAccount: null };

describe('AdminHomePage', () => {
  it('links every tool and what needs attention now to where it is handled', async () => {
    mockApi({ 'GET /auth/me': { body: me }, 'GET /admin/attention': { body: { pendingProviders: 3, failedJobs: 1, failedEmails: 0 } } });
    renderPage(<AdminHomePage />, { path: '/admin', route: '/admin' });

    const attention = await screen.findByRole('list', { name: 'Needs attention now' });
    expect(within(attention).getByText('providers wait for approval')).toBeTruthy();
    expect(within(attention).getByRole('link', { name: 'Review access requests' }).getAttribute('href')).toBe('/admin/provider/approve');
    expect(within(attention).getByRole('link', { name: 'Open the job monitor' }).getAttribute('href')).toBe('/admin/provider/jobs?status=Failed');
    // Nothing failed to send: not listed.
    expect(within(attention).queryByRole('link', { name: 'Open the email log' })).toBeNull();

    const tools = screen.getByRole('list', { name: 'Administration areas' });
    const hrefs = within(tools).getAllByRole('link').map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual([
      '/admin/provider/approve', '/admin/provider/register', '/admin/provider/account/new', '/admin/provider/accounts', '/admin/provider/users', '/admin/provider/emails',
      '/admin/provider/lab-toolbox', '/admin/provider/insurance', '/admin/provider/financial-aid', '/admin/provider/jobs', '/admin/provider/api-clients',
      '/admin/provider/hl7', '/admin/provider/public-health', '/admin/provider/patient-release', '/admin/provider/turnaround-targets', '/admin/provider/research-projects',
      '/admin/provider/audit-trail',
    ]);
  });

  it('says so when nothing waits', async () => {
    mockApi({ 'GET /auth/me': { body: me }, 'GET /admin/attention': { body: { pendingProviders: 0, failedJobs: 0, failedEmails: 0 } } });
    renderPage(<AdminHomePage />, { path: '/admin', route: '/admin' });
    expect(await screen.findByText('Nothing waits: no access requests, no failed jobs, no failed emails.')).toBeTruthy();
  });

  it('keeps the tools usable when the attention list cannot be read', async () => {
    mockApi({ 'GET /auth/me': { body: me } });
    renderPage(<><AdminHomePage /><ErrorModalHost /></>, { path: '/admin', route: '/admin' });
    expect(await screen.findByText('The attention list could not be loaded')).toBeTruthy();
    expect(screen.queryByText('Request failed with status code 404')).toBeNull();
    expect(within(screen.getByRole('list', { name: 'Administration areas' })).getAllByRole('link')).toHaveLength(17);
  });
});
