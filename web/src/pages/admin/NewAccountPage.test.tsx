import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AccountType } from '@platform/domain';
import { describedText, fillIn } from '../../test/fields';
import { apiRefusal, mockApi, type MockHandler } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { findToast, ToastHost } from '../../test/toasts';
import { NewAccountPage } from './NewAccountPage';

const created = {
  id: 7, name: 'Harbor Urology', type: AccountType.General, eapPartner: true, international: false, clinicAccess: true, researchAccess: false,
  takesPatientOrders: false, isActive: true, departments: ['Urology'], physicianCount: 1, userCount: 0, sampleCount: 0, phone: null, createdAt: '2026-03-01T00:00:00Z',
};

const renderForm = (create: MockHandler) => {
  const sent = mockApi({ 'POST /admin/accounts/create': create });
  renderPage(<><NewAccountPage /><ToastHost /></>, { path: '/admin/provider/account/new', route: '/admin/provider/account/new' });
  return sent;
};

async function fillAccount(user: ReturnType<typeof userEvent.setup>) {
  await fillIn(user, screen.getByLabelText(/^Account name/), 'Harbor Urology');
  await user.click(screen.getByRole('checkbox', { name: /EAP partner/ }));
  await user.click(screen.getByRole('button', { name: 'Add department' }));
  await fillIn(user, screen.getByLabelText(/^Department 1/), 'Urology');
  await user.click(screen.getByRole('button', { name: 'Add physician' }));
  const physician = screen.getByRole('group', { name: 'Physician 1' });
  await fillIn(user, within(physician).getByLabelText(/first name/), 'Omar');
  await fillIn(user, within(physician).getByLabelText(/last name/), 'Reyes');
  await fillIn(user, within(physician).getByLabelText(/NPI/), '1987654328');
}

describe('NewAccountPage', () => {
  it("toasts 'Account Created Successfully' and sends the account with its departments and physicians", async () => {
    const user = userEvent.setup({ delay: null });
    const sent = renderForm({ status: 201, body: created });
    await fillAccount(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    await findToast('Account Created Successfully');
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'Harbor Urology', type: 'General', eapPartner: true, international: false, clinicAccess: true, researchAccess: false, takesPatientOrders: false,
      phone: null, shippingAddress: null, billingAddress: null, departments: ['Urology'], physicians: [{ firstName: 'Omar', lastName: 'Reyes', npi: '1987654328', specialty: null }],
    });
    expect((screen.getByLabelText(/^Account name/) as HTMLInputElement).value).toBe('');
  });

  it("shows the server's message on a 409 (the name is taken)", async () => {
    const user = userEvent.setup({ delay: null });
    renderForm(apiRefusal(409, 'conflict', 'An account named Harbor Urology already exists'));
    await fillAccount(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    expect(await screen.findByText('An account named Harbor Urology already exists')).toBeTruthy();
    expect(screen.getByText('The account was not created')).toBeTruthy();
    expect(screen.queryByText('Account Created Successfully')).toBeNull();
    // The form keeps what was typed, to change the name and try again.
    expect((screen.getByLabelText(/^Account name/) as HTMLInputElement).value).toBe('Harbor Urology');
  });

  it('puts a message about one physician row on that row', async () => {
    const user = userEvent.setup({ delay: null });
    renderForm(apiRefusal(409, 'conflict', 'A physician with NPI 1987654328 already exists', [{ field: 'physicians.0.npi', message: 'A physician with NPI 1987654328 already exists' }]));
    await fillAccount(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    const npi = within(screen.getByRole('group', { name: 'Physician 1' })).getByLabelText(/NPI/);
    await waitFor(() => expect(describedText(npi)).toContain('A physician with NPI 1987654328 already exists'));
  });

  it('needs clinic or research access before sending', async () => {
    const user = userEvent.setup({ delay: null });
    const sent = renderForm({ status: 201, body: created });
    await fillIn(user, screen.getByLabelText(/^Account name/), 'Harbor Urology');
    await user.click(screen.getByRole('checkbox', { name: /Clinic access/ }));
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('An account needs clinic access, research access or both')).toBeTruthy();
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('dismissing the refusal, and then the account created, gives the focus back to Create account', async () => {
    const user = userEvent.setup({ delay: null });
    let attempts = 0;
    renderForm(() => (++attempts === 1 ? apiRefusal(409, 'conflict', 'An account named Harbor Urology already exists') : { status: 201, body: created }));
    await fillAccount(user);
    const create = screen.getByRole('button', { name: 'Create account' });
    await user.click(create);
    await screen.findByText('The account was not created');
    screen.getByRole('button', { name: 'Dismiss' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByText('The account was not created')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(create));

    await user.keyboard('{Enter}');
    await screen.findByText('Next: its providers');
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByText('Next: its providers')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(create));
  });
});
