import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AccessStatus, AccountRole, AccountType, type ContactDetail, type ContactRow } from '@platform/domain';
import { pickOption, fillIn } from '../../test/fields';
import { apiRefusal, mockApi, type MockHandler } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { findToast, ToastHost } from '../../test/toasts';
import { UsersPage } from './UsersPage';

const account = (id: number, name: string) => ({
  id, name, type: AccountType.General, eapPartner: false, international: false, clinicAccess: true, researchAccess: false, takesPatientOrders: false,
  isActive: true, departments: [], physicianCount: 1, userCount: 2, createdAt: '2026-01-01T00:00:00Z',
});
const base = {
  phone: null, specialty: null, accessStatus: AccessStatus.Approved, requestedAccountName: null, requestNote: null, decisionReason: null, decidedAt: null,
  userActive: true, lastLoginAt: null, createdAt: '2026-02-01T00:00:00Z',
};
const staff: ContactDetail = {
  ...base, id: 50, firstName: 'Sam', lastName: 'Staff', email: 'staff@demo.test', title: 'Other', npi: null, userId: 80,
  memberships: [{ accountId: 1, accountName: 'Riverside Oncology', role: AccountRole.SupportStaff, isActive: true }],
  staffLinks: [{ accountId: 1, physicians: [] }],
};
const physician: ContactRow = {
  ...base, id: 51, firstName: 'Paula', lastName: 'Grant', email: 'physician@demo.test', title: 'Physician', npi: '1234567893', userId: 81,
  memberships: [{ accountId: 1, accountName: 'Riverside Oncology', role: AccountRole.Physician, isActive: true }],
};

function renderUsers(route: string, routes: Record<string, MockHandler> = {}) {
  const sent = mockApi({
    'GET /admin/contacts': { body: [physician, staff], headers: { 'x-total-count': '2' } },
    'GET /admin/contacts/50': { body: staff },
    'GET /admin/accounts': { body: [account(1, 'Riverside Oncology'), account(2, 'Lakeside Urology')], headers: { 'x-total-count': '2' } },
    'GET /admin/provider-staff-relationships/get-support-staff': { body: [{ contactId: 50, name: 'Sam Staff', email: 'staff@demo.test', physicians: [] }] },
    ...routes,
  });
  renderPage(<><UsersPage /><ToastHost /></>, { path: '/admin/provider/users', route });
  return sent;
}

describe('UsersPage', () => {
  it('finds users by name or email and opens one', async () => {
    const user = userEvent.setup({ delay: null });
    const sent = renderUsers('/admin/provider/users');
    const table = await screen.findByRole('table', { name: 'Provider users' });
    expect(within(table).getByText('Riverside Oncology: Support Staff')).toBeTruthy();
    await fillIn(user, screen.getByLabelText(/^Search users/), 'staff');
    await waitFor(() => expect(sent.some((r) => r.path === '/admin/contacts?q=staff&page=1&pageSize=10')).toBe(true));
    await user.click(within(table).getByRole('link', { name: 'Staff, Sam' }));
    expect(await screen.findByRole('heading', { name: 'Sam Staff' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Register a provider' }).getAttribute('href')).toBe('/admin/provider/register');
  });

  it("adds account access and links support staff to the account's physicians", async () => {
    const user = userEvent.setup({ delay: null });
    const sent = renderUsers('/admin/provider/users?contact=50', {
      'POST /admin/add-account-access': {
        body: { ...staff, memberships: [...staff.memberships, { accountId: 2, accountName: 'Lakeside Urology', role: AccountRole.SupportStaff, isActive: true }] },
      },
      'POST /admin/provider-staff-relationships/upsert': { body: [{ contactId: 50, name: 'Sam Staff', email: 'staff@demo.test', physicians: [{ contactId: 51, name: 'Paula Grant' }] }] },
    });
    await screen.findByRole('heading', { name: 'Sam Staff' });

    const adding = screen.getByRole('group', { name: 'Add account access' });
    await pickOption(user, within(adding).getByRole('combobox', { name: /^Add access to account/ }), 'Lakeside Urology');
    await user.click(within(adding).getByRole('button', { name: 'Add access' }));
    await findToast('Sam Staff may now act in Lakeside Urology as Support Staff');
    expect(sent.find((r) => r.path === '/admin/add-account-access')?.body).toEqual({ contactId: 50, accountId: 2, role: AccountRole.SupportStaff });

    const links = screen.getByRole('region', { name: 'Physicians in Riverside Oncology' });
    await pickOption(user, within(links).getByRole('combobox', { name: /^Physicians in Riverside Oncology/ }), /Paula Grant/);
    await user.click(within(links).getByRole('button', { name: 'Save physicians' }));
    await waitFor(() =>
      expect(sent.find((r) => r.path === '/admin/provider-staff-relationships/upsert')?.body).toEqual({ accountId: 1, staffContactId: 50, physicianContactIds: [51] }),
    );
  });

  it('deactivates the user as a whole only after a confirmation', async () => {
    const user = userEvent.setup({ delay: null });
    let active = true;
    const sent = renderUsers('/admin/provider/users?contact=50', {
      'GET /admin/contacts/50': () => ({ body: { ...staff, userActive: active } }),
      'POST /admin/activate-deactivate': () => {
        active = false;
        return { body: { ...staff, userActive: false } };
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Deactivate user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate Sam Staff?' });
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate user' }));
    await findToast('Sam Staff was deactivated');
    expect(sent.find((r) => r.path === '/admin/activate-deactivate')?.body).toEqual({ contactId: 50, active: false, accountId: null });
    expect(await screen.findByRole('button', { name: 'Activate user' })).toBeTruthy();
  });

  it('activates a deactivated user and an inactive account access again', async () => {
    const user = userEvent.setup({ delay: null });
    let current: ContactDetail = { ...staff, userActive: false, memberships: [{ ...staff.memberships[0], isActive: false }] };
    const sent = renderUsers('/admin/provider/users?contact=50', {
      'GET /admin/contacts/50': () => ({ body: current }),
      'POST /admin/activate-deactivate': (body) => {
        const { accountId, active } = body as { accountId: number | null; active: boolean };
        current = accountId === null ? { ...current, userActive: active } : { ...current, memberships: [{ ...current.memberships[0], isActive: active }] };
        return { body: current };
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Activate user' }));
    await findToast('Sam Staff can sign in again');
    expect(await screen.findByRole('button', { name: 'Deactivate user' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Activate in Riverside Oncology' }));
    await findToast('Sam Staff may act in Riverside Oncology again');
    expect(await screen.findByRole('button', { name: 'Deactivate in Riverside Oncology' })).toBeTruthy();
    expect(sent.filter((r) => r.path === '/admin/activate-deactivate').map((r) => r.body)).toEqual([
      { contactId: 50, active: true, accountId: null },
      { contactId: 50, active: true, accountId: 1 },
    ]);
  });

  it('closing the confirmation or dismissing a refusal gives the focus back to the button pressed; confirming gives it to the page heading', async () => {
    const user = userEvent.setup({ delay: null });
    renderUsers('/admin/provider/users?contact=50', {
      'POST /admin/add-super-admin': apiRefusal(409, 'conflict', 'Sam Staff is support staff there: make them a physician first'),
      'POST /admin/activate-deactivate': { body: { ...staff, userActive: false } },
    });
    const deactivate = await screen.findByRole('button', { name: 'Deactivate user' });
    await user.click(deactivate);
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate Sam Staff?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(document.activeElement).toBe(deactivate));

    const makeSuperAdmin = screen.getByRole('button', { name: 'Make super admin of Riverside Oncology' });
    await user.click(makeSuperAdmin);
    await screen.findByText('Sam Staff is support staff there: make them a physician first');
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByText(/make them a physician first/)).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(makeSuperAdmin));

    // Confirmed, the button is busy with the command: the heading has the focus meanwhile.
    await user.click(deactivate);
    await user.click(within(await screen.findByRole('dialog', { name: 'Deactivate Sam Staff?' })).getByRole('button', { name: 'Deactivate user' }));
    await findToast('Sam Staff was deactivated');
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Provider users' }));
  });
});
