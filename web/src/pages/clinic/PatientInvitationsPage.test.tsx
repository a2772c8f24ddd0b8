import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AccountRole, AccountType, UserKind, type Me, type PatientInvitationRow } from '@platform/domain';
import { apiRefusal, mockApi, type MockHandler } from '../../test/mock-api';
import { fillIn } from '../../test/fields';
import { renderPage } from '../../test/render';
import { findToast, ToastHost } from '../../test/toasts';
import { ErrorModalHost } from '../../components/ErrorModalHost';
import { PatientInvitationsPage } from './PatientInvitationsPage';

const riverside = {
  id: 1, name: 'Riverside Oncology', type: AccountType.General, role: AccountRole.Physician as AccountRole,
  eapPartner: false, international: false, clinicAccess: true, researchAccess: false,
};
const me: Me = {
  user: { id: 7, kind: UserKind.Provider, email: 'physician@demo.test', firstName: 'Paula', lastName: 'Grant' },
  accounts: [riverside],
  currentAccount: riverside,
};
const row = (over: Partial<PatientInvitationRow> = {}): PatientInvitationRow => ({
  id: 5, email: 'harold@example.test', firstName: 'Harold', lastName: 'Finch', product: 'prostox', status: 'Requested',
  expiresAt: '2099-12-07T10:00:00Z', lastSentAt: '2026-11-23T10:00:00Z', sendCount: 1, orderNumber: null, createdBy: 'Paula Grant',
  createdAt: '2026-11-23T10:00:00Z', ...over,
});
const LIST = 'GET /provider-clinic/1/patient/invitations?page=1&pageSize=10';

const api = (extra: Record<string, MockHandler>) => mockApi({ 'GET /auth/me': { body: me }, ...extra });
const renderInvitations = () =>
  renderPage(<><PatientInvitationsPage /><ErrorModalHost /><ToastHost /></>, { path: '/provider-clinic/:accountId/patient-invitations', route: '/provider-clinic/1/patient-invitations' });

describe('PatientInvitationsPage', () => {
  it('lists invitations with status and expiry, and resends one', async () => {
    const user = userEvent.setup();
    const sent = api({
      [LIST]: { body: [row(), row({ id: 6, email: 'used@example.test', status: 'Accepted', orderNumber: 'RPD0000000001' })], headers: { 'x-total-count': '2' } },
      'POST /provider-clinic/1/patient/invitations/update': { body: row({ sendCount: 2 }) },
    });
    renderInvitations();
    const table = await screen.findByRole('table', { name: 'Patient invitations' });
    expect(within(table).getByText('Requested')).toBeTruthy();
    expect(within(table).getByText('RPD0000000001')).toBeTruthy();
    // The test by the names it has everywhere else (a PROSTOX order becomes ultra, CFRT or both).
    expect(within(table).getAllByText('PROSTOX ultra / PROSTOX CFRT')).toHaveLength(2);
    // A used invitation can be neither resent nor cancelled.
    expect(within(table).queryByRole('button', { name: 'Resend the invitation to used@example.test' })).toBeNull();
    await user.click(within(table).getByRole('button', { name: 'Resend the invitation to harold@example.test' }));
    await findToast('Invitation sent again to harold@example.test');
    expect(sent.find((r) => r.path.endsWith('/invitations/update'))?.body).toEqual({ id: 5, action: 'resend' });
  });

  it('creates an invitation', async () => {
    const user = userEvent.setup();
    const sent = api({ [LIST]: { body: [], headers: { 'x-total-count': '0' } }, 'POST /provider-clinic/1/patient/invitations/create': { status: 201, body: row() } });
    renderInvitations();
    await screen.findByText('No patient has been invited yet.');
    expect((screen.getByRole('combobox', { name: /^Test/ }) as HTMLInputElement).value).toBe('PROSTOX ultra / PROSTOX CFRT');
    await fillIn(user, screen.getByRole('textbox', { name: /^Patient email/ }), 'harold@example.test');
    await fillIn(user, screen.getByRole('textbox', { name: /^First name/ }), 'Harold');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    await findToast('Invitation sent to harold@example.test');
    await waitFor(() =>
      expect(sent.find((r) => r.path.endsWith('/invitations/create'))?.body).toEqual({ email: 'harold@example.test', firstName: 'Harold', lastName: null, product: 'prostox' }),
    );
  });

  it("says 'Error retrieving patient invitations' when the list fails", async () => {
    api({ [LIST]: apiRefusal(500, 'internal', 'Something went wrong') });
    renderInvitations();
    expect(await screen.findByText('Request failed with status code 500')).toBeTruthy();
    expect(screen.getAllByText('Error retrieving patient invitations').length).toBeGreaterThanOrEqual(1);
  });
});
