import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AccountType } from '@platform/domain';
import { fillIn, pickOption } from '../../test/fields';
import { mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { AccountsPage } from './AccountsPage';

const row = (id: number, name: string, more: Record<string, unknown> = {}) => ({
  id, name, type: AccountType.General, eapPartner: false, international: false, clinicAccess: true, researchAccess: false, takesPatientOrders: false,
  isActive: true, departments: [], physicianCount: 1, userCount: 3, sampleCount: 1250, phone: null, createdAt: '2026-03-01T00:00:00Z', ...more,
});

describe('AccountsPage', () => {
  it('lists accounts with their users and samples, each linked to its page; searches and filters by portal access and type', async () => {
    const user = userEvent.setup({ delay: null });
    const sent = mockApi({
      'GET /admin/accounts?page=1&pageSize=10': { body: [row(7, 'Harbor Urology'), row(8, 'Bay Research', { clinicAccess: false, researchAccess: true, userCount: 0, sampleCount: 0 })], headers: { 'x-total-count': '2' } },
      'GET /admin/accounts?q=bay&page=1&pageSize=10': { body: [row(8, 'Bay Research')], headers: { 'x-total-count': '1' } },
      'GET /admin/accounts?q=bay&access=research&page=1&pageSize=10': { body: [row(8, 'Bay Research')], headers: { 'x-total-count': '1' } },
      'GET /admin/accounts?q=bay&access=research&type=MiraKind&page=1&pageSize=10': { body: [], headers: { 'x-total-count': '0' } },
    });
    renderPage(<AccountsPage />, { path: '/admin/provider/accounts', route: '/admin/provider/accounts' });
    const table = await screen.findByRole('table', { name: 'Accounts' });
    const harbor = within(table).getByRole('link', { name: 'Harbor Urology' });
    expect(harbor.getAttribute('href')).toBe('/admin/provider/accounts/7');
    const cells = within(harbor.closest('tr')!).getAllByRole('cell').map((c) => c.textContent);
    expect(cells).toEqual(['Harbor Urology', 'General', 'Clinic', '3', '1,250', '1', 'Active']);
    expect(within(within(table).getByRole('link', { name: 'Bay Research' }).closest('tr')!).getAllByRole('cell')[2].textContent).toBe('Research');

    await fillIn(user, screen.getByLabelText(/^Search accounts/), 'bay');
    await waitFor(() => expect(sent.some((r) => r.path === '/admin/accounts?q=bay&page=1&pageSize=10')).toBe(true));
    await pickOption(user, screen.getByRole('combobox', { name: 'Portal access' }), 'Research access');
    await waitFor(() => expect(sent.some((r) => r.path === '/admin/accounts?q=bay&access=research&page=1&pageSize=10')).toBe(true));
    await pickOption(user, screen.getByRole('combobox', { name: 'Account type' }), 'MiraKind');
    expect(await screen.findByText('No account matches.')).toBeTruthy();
  });
});
