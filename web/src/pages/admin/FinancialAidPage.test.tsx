import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { describedText, fillIn } from '../../test/fields';
import { apiRefusal, mockApi, type MockHandler } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { findToast, ToastHost } from '../../test/toasts';
import { FinancialAidPage } from './FinancialAidPage';

const record = {
  id: 9, patientId: 5, patientName: 'Imogen Brightwater', patientEmail: 'imogen@example.test', dateOfBirth: '1959-10-03', status: 'Approved', approvedPriceCents: 10000,
  validUntil: '2099-12-31', current: true, note: null, createdBy: 'Alex Admin', createdAt: '2026-03-01T00:00:00Z',
};

function renderAid(routes: Record<string, MockHandler>) {
  const sent = mockApi({ 'GET /admin/patients/financial-assistance': { body: [], headers: { 'x-total-count': '0' } }, ...routes });
  renderPage(<><FinancialAidPage /><ToastHost /></>, { path: '/admin/provider/financial-aid', route: '/admin/provider/financial-aid' });
  return sent;
}

describe('FinancialAidPage', () => {
  it('approves an existing patient at the default 100 USD, sent in cents, then lists that patient', async () => {
    const user = userEvent.setup({ delay: null });
    const sent = renderAid({
      'POST /admin/patients/search': { body: [{ id: 5, name: 'Imogen Brightwater', dateOfBirth: '1959-10-03', email: 'imogen@example.test', accountName: 'Riverside Oncology' }] },
      'POST /admin/patients/financial-assistance/create': { status: 201, body: { ...record, assistanceCode: 'KQ7RT-M2X9P', codeEmailedTo: 'imogen@example.test' } },
    });
    expect(await screen.findByText('No financial aid records yet.')).toBeTruthy();
    await fillIn(user, screen.getByLabelText(/^Find a patient/), 'Bright');
    await user.click(await screen.findByRole('listitem', { name: /^Choose Imogen Brightwater/ }));
    expect((screen.getByLabelText(/^Approved price \(USD\)/) as HTMLInputElement).value).toBe('$100');
    await fillIn(user, screen.getByLabelText(/^Valid until/), '2099-12-31');
    await user.click(screen.getByRole('button', { name: 'Save record' }));

    await findToast('Financial aid saved for Imogen Brightwater');
    // The code, shown this once, and where it went.
    expect(await screen.findByText('Assistance code for Imogen Brightwater: KQ7RT-M2X9P')).toBeTruthy();
    expect(screen.getByText(/^Emailed to imogen@example\.test\. The patient enters it/)).toBeTruthy();
    expect(sent.find((r) => r.path === '/admin/patients/search')?.body).toEqual({ q: 'Bright' });
    expect(sent.find((r) => r.path === '/admin/patients/financial-assistance/create')?.body).toEqual({
      patientId: 5, approvedPriceCents: 10000, validUntil: '2099-12-31', note: null,
    });
    await waitFor(() => expect(sent.some((r) => r.path === '/admin/patients/financial-assistance?patientId=5&page=1&pageSize=10')).toBe(true));
    expect(screen.getByText('Records of Imogen Brightwater')).toBeTruthy();
  });

  it("enters a new patient; the server's message about one of their fields lands on it", async () => {
    const user = userEvent.setup({ delay: null });
    const sent = renderAid({
      'POST /admin/patients/financial-assistance/create': apiRefusal(400, 'validation_failed', 'Date of birth must be a real date written YYYY-MM-DD', [
        { field: 'patient.dateOfBirth', message: 'Date of birth must be a real date written YYYY-MM-DD' },
      ]),
    });
    await user.click(screen.getByRole('radio', { name: 'New patient' }));
    await fillIn(user, screen.getByLabelText(/^First name/), 'Ruth');
    await fillIn(user, screen.getByLabelText(/^Last name/), 'Okafor');
    await fillIn(user, screen.getByLabelText(/^Date of birth/), '1950-02-28');
    await fillIn(user, screen.getByLabelText(/^Email/), 'ruth@example.test');
    const price = screen.getByLabelText(/^Approved price \(USD\)/);
    await user.clear(price);
    await fillIn(user, price, '49.5');
    await fillIn(user, screen.getByLabelText(/^Valid until/), '2099-01-31');
    await user.click(screen.getByRole('button', { name: 'Save record' }));

    await waitFor(() => expect(describedText(screen.getByLabelText(/^Date of birth/))).toContain('Date of birth must be a real date written YYYY-MM-DD'));
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({
      patient: { firstName: 'Ruth', lastName: 'Okafor', dateOfBirth: '1950-02-28', email: 'ruth@example.test' }, approvedPriceCents: 4950,
      validUntil: '2099-01-31', note: null,
    });
    expect(within(document.body).queryByText('The record was not saved')).toBeNull();
  });

  it('dismissing a refusal no field owns gives the focus back to Save record', async () => {
    const user = userEvent.setup({ delay: null });
    renderAid({ 'POST /admin/patients/financial-assistance/create': apiRefusal(409, 'conflict', 'Ruth Okafor already has financial aid until 2099-01-31') });
    await user.click(screen.getByRole('radio', { name: 'New patient' }));
    await fillIn(user, screen.getByLabelText(/^First name/), 'Ruth');
    await fillIn(user, screen.getByLabelText(/^Last name/), 'Okafor');
    await fillIn(user, screen.getByLabelText(/^Date of birth/), '1950-02-28');
    await fillIn(user, screen.getByLabelText(/^Email/), 'ruth@example.test');
    await fillIn(user, screen.getByLabelText(/^Valid until/), '2099-01-31');
    const save = screen.getByRole('button', { name: 'Save record' });
    await user.click(save);
    await screen.findByText('The record was not saved');
    screen.getByRole('button', { name: 'Dismiss' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByText('The record was not saved')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(save));
  });
});
