import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AccountType, type AdminAccountDetail } from '@platform/domain';
import { describedText, fillIn } from '../../test/fields';
import { apiRefusal, mockApi, type MockHandler } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { findToast, ToastHost } from '../../test/toasts';
import { AccountPage } from './AccountPage';

const account: AdminAccountDetail = {
  id: 7, name: 'Harbor Urology', type: AccountType.General, eapPartner: false, international: false, clinicAccess: true, researchAccess: false,
  takesPatientOrders: false, isActive: true, phone: null, shippingAddress: null, billingAddress: null, departments: ['Urology'],
  physicians: [
    { id: 31, firstName: 'Omar', lastName: 'Reyes', npi: '1987654328', specialty: null, hasOrders: true },
    { id: 32, firstName: 'Ana', lastName: 'Lind', npi: '1234567893', specialty: null, hasOrders: false },
  ],
  supportMailboxes: [{ testLine: 'KRAS', email: 'kras@lab.test' }], userCount: 3, sampleCount: 12, createdAt: '2026-03-01T00:00:00Z', updatedAt: '2026-03-02T00:00:00Z',
};

const renderAccount = (put: MockHandler) => {
  const sent = mockApi({ 'GET /admin/accounts/7': { body: account }, 'PUT /admin/accounts/7': put });
  renderPage(<><AccountPage /><ToastHost /></>, { path: '/admin/provider/accounts/:accountId', route: '/admin/provider/accounts/7' });
  return sent;
};

describe('AccountPage', () => {
  it('edits the address, phone, access flags and a support mailbox and sends the whole account; a physician named on orders cannot be removed', async () => {
    const user = userEvent.setup({ delay: null });
    const sent = renderAccount((body) => ({ body: { ...account, ...(body as object), updatedAt: '2026-03-03T00:00:00Z' } }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Harbor Urology' })).toBeTruthy();
    expect(screen.getByText('General · 3 users · 12 samples')).toBeTruthy();
    expect(within(screen.getByRole('group', { name: 'Physician 1' })).queryByRole('button', { name: /Remove/ })).toBeNull();
    expect(within(screen.getByRole('group', { name: 'Physician 1' })).getByText('Named on orders: stays')).toBeTruthy();

    await fillIn(user, screen.getByLabelText(/^Phone/), '(555) 010-2000');
    await fillIn(user, screen.getByLabelText(/^Shipping address line 1/), '10 Harbor Way');
    await fillIn(user, screen.getByLabelText(/^Shipping address city/), 'Bayport');
    await fillIn(user, screen.getByLabelText(/^Shipping address state or region/), 'CA');
    await fillIn(user, screen.getByLabelText(/^Shipping address postal code/), '94000');
    await user.click(screen.getByRole('checkbox', { name: /Research access/ }));
    await fillIn(user, screen.getByLabelText(/^PROSTOX support mailbox/), 'prostox@lab.test');
    await user.click(screen.getByRole('button', { name: 'Remove physician 2' }));
    await user.click(screen.getByRole('button', { name: 'Save account' }));

    await findToast('Account Updated Successfully');
    expect(sent.find((r) => r.method === 'PUT')?.body).toEqual({
      name: 'Harbor Urology', type: 'General', eapPartner: false, international: false, clinicAccess: true, researchAccess: true, takesPatientOrders: false,
      phone: '(555) 010-2000',
      shippingAddress: { addressLine1: '10 Harbor Way', addressLine2: null, city: 'Bayport', state: 'CA', postalCode: '94000', country: 'US' },
      billingAddress: null,
      departments: ['Urology'],
      physicians: [{ id: 31, firstName: 'Omar', lastName: 'Reyes', npi: '1987654328', specialty: null }],
      supportMailboxes: [{ testLine: 'PROSTOX', email: 'prostox@lab.test' }, { testLine: 'KRAS', email: 'kras@lab.test' }],
    });
  });

  it("puts the server's message on the address field it names", async () => {
    const user = userEvent.setup({ delay: null });
    renderAccount(apiRefusal(400, 'validation_failed', 'Shipping address ZIP code must be 5 digits, or 5+4 digits like 94110-1234', [
      { field: 'shippingAddress.postalCode', message: 'Shipping address ZIP code must be 5 digits, or 5+4 digits like 94110-1234' },
    ]));
    await screen.findByRole('heading', { level: 1, name: 'Harbor Urology' });
    await fillIn(user, screen.getByLabelText(/^Shipping address line 1/), '10 Harbor Way');
    await fillIn(user, screen.getByLabelText(/^Shipping address postal code/), '9400');
    await user.click(screen.getByRole('button', { name: 'Save account' }));
    const zip = screen.getByLabelText(/^Shipping address postal code/);
    await waitFor(() => expect(describedText(zip)).toContain('Shipping address ZIP code must be 5 digits'));
    expect(screen.queryByText('Account Updated Successfully')).toBeNull();
  });
});
