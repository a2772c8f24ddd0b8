import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AccessStatus, AccountRole, AccountType } from '@platform/domain';
import { describedText, pickOption, fillIn } from '../../test/fields';
import { apiRefusal, mockApi, type MockHandler } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { findToast, ToastHost } from '../../test/toasts';
import { RegisterProviderPage } from './RegisterProviderPage';

const riverside = {
  id: 1, name: 'Riverside Oncology', type: AccountType.General, eapPartner: false, international: false, clinicAccess: true, researchAccess: false,
  takesPatientOrders: false, isActive: true, departments: [], physicianCount: 2, userCount: 3, createdAt: '2026-01-01T00:00:00Z',
};

const contact = {
  id: 41, firstName: 'Nora', lastName: 'Quill', email: 'nora.quill@clinic.test', phone: null, title: 'Physician', specialty: 'Urology', npi: '1234567893',
  accessStatus: AccessStatus.Approved, requestedAccountName: null, requestNote: null, decisionReason: null, decidedAt: null, userId: 90, userActive: true,
  lastLoginAt: null, memberships: [{ accountId: 1, accountName: 'Riverside Oncology', role: AccountRole.Physician, isActive: true }], createdAt: '2026-02-01T00:00:00Z',
  staffLinks: [],
};

function api(create: MockHandler) {
  return mockApi({
    'GET /admin/accounts': { body: [riverside], headers: { 'x-total-count': '1' } },
    'POST /admin/contacts/create': create,
  });
}

const renderRegister = () =>
  renderPage(<><RegisterProviderPage /><ToastHost /></>, { path: '/admin/provider/register', route: '/admin/provider/register' });

async function fillPhysician(user: ReturnType<typeof userEvent.setup>) {
  await fillIn(user, screen.getByLabelText(/^First name/), 'Nora');
  await fillIn(user, screen.getByLabelText(/^Last name/), 'Quill');
  await fillIn(user, screen.getByLabelText(/^Email/), 'nora.quill@clinic.test');
  await pickOption(user, screen.getByRole('combobox', { name: /^Title/ }), 'Physician');
  await fillIn(user, screen.getByLabelText(/^NPI/), '1234567893');
  await pickOption(user, screen.getByRole('combobox', { name: /^Account 1/ }), 'Riverside Oncology');
}

describe('RegisterProviderPage', () => {
  it("toasts 'User Created Successfully' on 201 and sends the provider with their account and role", async () => {
    const user = userEvent.setup({ delay: null });
    const sent = api({ status: 201, body: { message: 'User Created Successfully', contact } });
    renderRegister();
    await fillPhysician(user);
    await user.click(screen.getByRole('button', { name: 'Register provider' }));

    await findToast('User Created Successfully');
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({
      firstName: 'Nora', lastName: 'Quill', email: 'nora.quill@clinic.test', phone: null, title: 'Physician', specialty: null, npi: '1234567893',
      accounts: [{ accountId: 1, role: AccountRole.Physician }],
    });
    expect(screen.getByRole('link', { name: 'Open their page' }).getAttribute('href')).toBe('/admin/provider/users?contact=41');
    // The form is empty again for the next one.
    expect((screen.getByLabelText(/^First name/) as HTMLInputElement).value).toBe('');
  });

  it("puts a 400's field errors on their fields", async () => {
    const user = userEvent.setup({ delay: null });
    api(apiRefusal(400, 'validation_failed', 'Email must be a valid email; NPI must be a valid 10-digit National Provider Identifier', [
      { field: 'email', message: 'Email must be a valid email' },
      { field: 'npi', message: 'NPI must be a valid 10-digit National Provider Identifier' },
      { field: 'accounts.0.role', message: 'Role must be one of Physician, Support Staff, PROSTOX Super Admin' },
    ]));
    renderRegister();
    await fillPhysician(user);
    await user.click(screen.getByRole('button', { name: 'Register provider' }));

    await waitFor(() => expect(describedText(screen.getByLabelText(/^Email/))).toContain('Email must be a valid email'));
    expect(describedText(screen.getByLabelText(/^NPI/))).toContain('NPI must be a valid 10-digit National Provider Identifier');
    expect(describedText(screen.getByRole('combobox', { name: /^Role 1/ }))).toContain('Role must be one of');
    expect(screen.queryByText('User Created Successfully')).toBeNull();
    // Every message found its field: no error modal.
    expect(screen.queryByText('Request failed with status code 400')).toBeNull();
  });

  it("shows the server's message when it names no field (a duplicate email)", async () => {
    const user = userEvent.setup({ delay: null });
    api(apiRefusal(409, 'conflict', 'A contact with the email nora.quill@clinic.test already exists'));
    renderRegister();
    await fillPhysician(user);
    await user.click(screen.getByRole('button', { name: 'Register provider' }));
    expect(await screen.findByText('A contact with the email nora.quill@clinic.test already exists')).toBeTruthy();
    expect(screen.getByText('The user was not created')).toBeTruthy();
  });

  it('asks for an NPI for a physician before sending', async () => {
    const user = userEvent.setup({ delay: null });
    const sent = api({ status: 201, body: { message: 'User Created Successfully', contact } });
    renderRegister();
    await fillPhysician(user);
    await user.clear(screen.getByLabelText(/^NPI/));
    await user.click(screen.getByRole('button', { name: 'Register provider' }));
    await waitFor(() => expect(describedText(screen.getByLabelText(/^NPI/))).toContain('NPI is required for a physician'));
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('dismissing the refusal, and then the provider registered, gives the focus back to Register provider', async () => {
    const user = userEvent.setup({ delay: null });
    let attempts = 0;
    api(() => (++attempts === 1 ? apiRefusal(409, 'conflict', 'A user with the email nora.quill@clinic.test already exists') : { status: 201, body: { message: 'User Created Successfully', contact } }));
    renderRegister();
    await fillPhysician(user);
    const register = screen.getByRole('button', { name: 'Register provider' });
    await user.click(register);
    await screen.findByText('The user was not created');
    screen.getByRole('button', { name: 'Dismiss' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByText('The user was not created')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(register));

    await user.keyboard('{Enter}');
    await screen.findByText('Provider registered');
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByText('Provider registered')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(register));
  });
});
