import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AccessStatus, AccountRole, AccountType, type ContactRow } from '@platform/domain';
import { describedText, pickOption, fillIn } from '../../test/fields';
import { apiRefusal, mockApi, type MockHandler } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { findToast, ToastHost } from '../../test/toasts';
import { ApproveProvidersPage } from './ApproveProvidersPage';

const pending: ContactRow = {
  id: 12, firstName: 'Ada', lastName: 'Moreno', email: 'ada.moreno@lakeside.test', phone: '555-0100', title: 'Nurse', specialty: 'Urology', npi: null,
  accessStatus: AccessStatus.Pending, requestedAccountName: 'Lakeside Urology', requestNote: 'I order for Dr. Reyes', decisionReason: null, decidedAt: null,
  userId: null, userActive: null, lastLoginAt: null, memberships: [], createdAt: '2026-03-02T15:04:00Z',
};
const lakeside = {
  id: 2, name: 'Lakeside Urology', type: AccountType.General, eapPartner: false, international: false, clinicAccess: true, researchAccess: false,
  takesPatientOrders: false, isActive: true, departments: [], physicianCount: 1, userCount: 2, createdAt: '2026-01-01T00:00:00Z',
};

/** The pending list answers Ada until a decision is sent, then nobody. */
function api(decision: MockHandler = { body: { ...pending, accessStatus: AccessStatus.Denied, staffLinks: [] } }) {
  let decided = false;
  const sent = mockApi({
    'GET /admin/contacts/pending': () => ({ body: decided ? [] : [pending], headers: { 'x-total-count': decided ? '0' : '1' } }),
    'GET /admin/accounts': { body: [lakeside], headers: { 'x-total-count': '1' } },
    'POST /admin/contacts/update-access': (body) => {
      const answer = typeof decision === 'function' ? decision(body) : decision;
      if ((answer.status ?? 200) < 400) decided = true;
      return answer;
    },
  });
  renderPage(<><ApproveProvidersPage /><ToastHost /></>, { path: '/admin/provider/approve', route: '/admin/provider/approve' });
  return sent;
}

const request = () => screen.findByRole('listitem', { name: 'Ada Moreno' });

describe('ApproveProvidersPage', () => {
  it('shows what the provider asked for', async () => {
    api();
    const card = await request();
    for (const text of ['ada.moreno@lakeside.test', '555-0100', 'Nurse', 'Urology', 'Lakeside Urology', 'I order for Dr. Reyes']) {
      expect(within(card).getByText(text)).toBeTruthy();
    }
  });

  it('needs a reason to deny', async () => {
    const user = userEvent.setup({ delay: null });
    const sent = api();
    await user.click(within(await request()).getByRole('button', { name: 'Deny' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deny Ada Moreno' });
    await user.click(within(dialog).getByRole('button', { name: 'Deny access' }));

    await waitFor(() => expect(describedText(within(dialog).getByLabelText(/^Reason/))).toContain('Give a reason for the denial'));
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);

    await fillIn(user, within(dialog).getByLabelText(/^Reason/), 'We could not confirm the practice');
    await user.click(within(dialog).getByRole('button', { name: 'Deny access' }));
    await findToast('Access denied for Ada Moreno');
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({ contactId: 12, decision: 'Denied', reason: 'We could not confirm the practice' });
    // The list is read again: nobody waits any more.
    expect(await screen.findByText('No provider is waiting for approval.')).toBeTruthy();
  });

  it('approves with the accounts and roles chosen', async () => {
    const user = userEvent.setup({ delay: null });
    const sent = api({ body: { ...pending, accessStatus: AccessStatus.Approved, staffLinks: [] } });
    await user.click(within(await request()).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve Ada Moreno' });
    // A nurse is Support Staff unless the admin says otherwise.
    expect((within(dialog).getByRole('combobox', { name: /^Role 1/ }) as HTMLInputElement).value).toBe(AccountRole.SupportStaff);
    await pickOption(user, within(dialog).getByRole('combobox', { name: /^Account 1/ }), 'Lakeside Urology');
    await user.click(within(dialog).getByRole('button', { name: 'Approve access' }));

    await findToast('Access approved for Ada Moreno');
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({ contactId: 12, decision: 'Approved', accounts: [{ accountId: 2, role: AccountRole.SupportStaff }] });
  });

  it("shows the server's message when the decision is refused", async () => {
    const user = userEvent.setup({ delay: null });
    api(apiRefusal(409, 'conflict', 'Ada Moreno was already decided on'));
    await user.click(within(await request()).getByRole('button', { name: 'Deny' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deny Ada Moreno' });
    await fillIn(user, within(dialog).getByLabelText(/^Reason/), 'Duplicate request');
    await user.click(within(dialog).getByRole('button', { name: 'Deny access' }));
    expect(await within(dialog).findByText('Ada Moreno was already decided on')).toBeTruthy();
  });

  it('cancelling a dialog gives the focus back to the button that opened it; a decision (its card gone) gives it to the page heading', async () => {
    const user = userEvent.setup({ delay: null });
    api();
    const approve = within(await request()).getByRole('button', { name: 'Approve' });
    await user.click(approve);
    await user.click(within(await screen.findByRole('dialog', { name: 'Approve Ada Moreno' })).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(document.activeElement).toBe(approve));

    const deny = within(await request()).getByRole('button', { name: 'Deny' });
    await user.click(deny);
    await screen.findByRole('dialog', { name: 'Deny Ada Moreno' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(document.activeElement).toBe(deny));

    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Deny Ada Moreno' });
    await fillIn(user, within(dialog).getByLabelText(/^Reason/), 'We could not confirm the practice');
    await user.click(within(dialog).getByRole('button', { name: 'Deny access' }));
    await screen.findByText('No provider is waiting for approval.');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Provider approvals' })));
  });
});
