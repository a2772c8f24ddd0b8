import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AccountRole, PatientOrderStage, PaymentMethod, PaymentStatus, type UnpaidPatientOrderRow } from '@platform/domain';
import { apiRefusal, mockApi, type MockHandler } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { findToast, ToastHost } from '../../test/toasts';
import { ErrorModalHost } from '../../components/ErrorModalHost';
import { UnpaidPatientOrders } from './UnpaidPatientOrders';

const row = (over: Partial<UnpaidPatientOrderRow> = {}): UnpaidPatientOrderRow => ({
  orderId: 42, orderNumber: 'RPD0123456789', stage: PatientOrderStage.AwaitingPayment, paymentStatus: PaymentStatus.AwaitingPayment,
  paymentMethod: PaymentMethod.SelfPay, product: 'prostox', tests: ['PROSTOX ultra'], priceCents: 50_000, cardPaymentStarted: true, mirakind: false,
  orderedAt: '2026-11-20T15:00:00Z', patient: { id: 9, firstName: 'Harold', lastName: 'Finch', dateOfBirth: '1958-06-21' }, ...over,
});
const declined = row({
  orderId: 43, orderNumber: 'RPD0000000043', paymentStatus: PaymentStatus.PaymentFailed, product: 'kras', tests: ['KRAS'], priceCents: 12_900,
  patient: { id: 10, firstName: 'Joss', lastName: 'Carter', dateOfBirth: '1970-01-02' },
});
const LIST = 'GET /provider-clinic/1/patient-orders/unpaid?page=1&pageSize=10&sort=orderedAt&order=desc';
const CANCEL = 'POST /provider-clinic/1/patient-orders/42/cancel';
const page = (rows: UnpaidPatientOrderRow[]): MockHandler => ({ body: rows, headers: { 'x-total-count': String(rows.length) } });

const renderList = (role: AccountRole) =>
  renderPage(
    <>
      <UnpaidPatientOrders accountId={1} role={role} />
      <ErrorModalHost />
      <ToastHost />
    </>,
  );

describe('UnpaidPatientOrders', () => {
  it('lists the orders awaiting payment: payment status, test, patient, when ordered', async () => {
    mockApi({ [LIST]: page([row(), declined]) });
    renderList(AccountRole.SupportStaff);
    const table = await screen.findByRole('table', { name: 'Orders awaiting payment' });
    const first = within(table).getByRole('row', { name: /RPD0123456789/ });
    expect(within(first).getByRole('link', { name: 'Finch, Harold' }).getAttribute('href')).toBe('/provider-clinic/1/patient/9');
    expect(within(first).getByText('PROSTOX')).toBeTruthy();
    expect(within(first).getByText('PROSTOX ultra')).toBeTruthy();
    expect(within(first).getByText('Awaiting Payment')).toBeTruthy();
    expect(within(first).getByText('Self-Pay · $500.00 · card payment started')).toBeTruthy();
    expect(within(first).getByText('11/20/2026')).toBeTruthy();
    const second = within(table).getByRole('row', { name: /RPD0000000043/ });
    expect(within(second).getByText('Payment Failed')).toBeTruthy();
    expect(within(second).getAllByText('KRAS')).toHaveLength(2); // the product, and the test it orders
    // Support staff see the orders but do not cancel them.
    expect(screen.queryByRole('button', { name: /Cancel order/ })).toBeNull();
  });

  it('lets a physician cancel one with a reason; the list is read again and the order is gone', async () => {
    const user = userEvent.setup();
    let cancelled = false;
    const sent = mockApi({
      [LIST]: () => ({ body: cancelled ? [declined] : [row(), declined], headers: { 'x-total-count': cancelled ? '1' : '2' } }),
      [CANCEL]: () => {
        cancelled = true;
        return { body: { orderId: 42, orderNumber: 'RPD0123456789', stage: PatientOrderStage.Cancelled, paymentStatus: PaymentStatus.AwaitingPayment, paymentMethod: PaymentMethod.SelfPay } };
      },
    });
    renderList(AccountRole.Physician);
    const table = await screen.findByRole('table', { name: 'Orders awaiting payment' });
    await user.click(within(table).getByRole('button', { name: 'Cancel order RPD0123456789' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel order RPD0123456789' });
    expect(within(dialog).getByText('The patient has not paid: nothing is charged, and the order can no longer be paid.')).toBeTruthy();
    expect(within(dialog).getByText(/The order of Harold Finch is cancelled/)).toBeTruthy();
    // The reason is required before anything is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the order' }));
    expect(await within(dialog).findByText('Give the reason for cancelling')).toBeTruthy();
    expect(sent.some((r) => r.method === 'POST' && r.path.endsWith('/cancel'))).toBe(false);

    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Patient chose another treatment');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the order' }));
    await findToast('Order RPD0123456789 cancelled');
    expect(sent.find((r) => r.path === '/provider-clinic/1/patient-orders/42/cancel')?.body).toEqual({ reason: 'Patient chose another treatment' });
    await waitFor(() => expect(screen.queryByRole('row', { name: /RPD0123456789/ })).toBeNull());
    expect(screen.getByRole('row', { name: /RPD0000000043/ })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("says why a cancel was refused, in the dialog, and keeps the order listed", async () => {
    const user = userEvent.setup();
    mockApi({ [LIST]: page([row()]), [CANCEL]: apiRefusal(409, 'conflict', 'This order is already cancelled') });
    renderList(AccountRole.SuperAdmin);
    await user.click(await screen.findByRole('button', { name: 'Cancel order RPD0123456789' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel order RPD0123456789' });
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Duplicate order');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the order' }));
    expect(await within(dialog).findByText('The order was not cancelled')).toBeTruthy();
    expect(within(dialog).getByText('This order is already cancelled')).toBeTruthy();
    expect(screen.getByRole('row', { name: /RPD0123456789/ })).toBeTruthy();
  });

  it('says when no order awaits payment', async () => {
    mockApi({ [LIST]: page([]) });
    renderList(AccountRole.Physician);
    expect(await screen.findByText('No patient order is awaiting payment.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it("says 'Error retrieving unpaid patient orders' when the list fails", async () => {
    mockApi({ [LIST]: apiRefusal(500, 'internal', 'Something went wrong') });
    renderList(AccountRole.Physician);
    expect(await screen.findByText('Request failed with status code 500')).toBeTruthy();
    expect(screen.getAllByText('Error retrieving unpaid patient orders').length).toBeGreaterThanOrEqual(1);
  });
});
