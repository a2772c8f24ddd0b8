import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PatientOrderStage, PaymentMethod, PaymentStatus, TestName, type PatientOrderSummary } from '@platform/domain';
import { apiRefusal, mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { rememberOrder } from '../../api/patient-portal';
import { OrderCompletePage, PAYMENT_FAILED_TITLE, RECEIPT_EMAILED } from './OrderCompletePage';
import * as leavePage from '../../components/patient-order/leave-page';

const ORDER = 'RPD0123456789';
const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz';
const summary = (over: Partial<PatientOrderSummary>): PatientOrderSummary => ({
  orderNumber: ORDER, product: 'prostox', tests: [TestName.ProstoxUltra], accountName: 'Riverside Oncology', paymentMethod: PaymentMethod.SelfPay,
  paymentStatus: PaymentStatus.AwaitingPayment, stage: PatientOrderStage.AwaitingPayment, priceCents: 500_00, donationCents: null,
  mirakind: false, insurancePlanName: null, ...over,
});

const renderComplete = () =>
  renderPage(<OrderCompletePage />, { path: '/patient-portal/order/complete', route: `/patient-portal/order/complete?order=${ORDER}` });

afterEach(() => {
  window.sessionStorage.clear();
  vi.restoreAllMocks();
});

describe('OrderCompletePage', () => {
  it('waits for the payment to be confirmed, then shows the order number, what happens next and the receipt', async () => {
    rememberOrder({ orderNumber: ORDER, orderToken: TOKEN }, 'prostox');
    let asked = 0;
    const sent = mockApi({
      'POST /order/summary': () => {
        asked += 1;
        return { body: asked === 1 ? summary({}) : summary({ paymentStatus: PaymentStatus.Paid, stage: PatientOrderStage.AwaitingSignOff }) };
      },
    });
    renderComplete();
    expect(await screen.findByText('Confirming your payment…')).toBeTruthy();
    expect(await screen.findByText('Thank you: your order is placed')).toBeTruthy();
    expect(screen.getByTestId('order-number').textContent).toBe(ORDER);
    expect(screen.getByText(RECEIPT_EMAILED)).toBeTruthy();
    expect(screen.getByText('A physician at Riverside Oncology reviews your order and signs it off.')).toBeTruthy();
    expect(screen.getByText('We ship a test kit to your address.')).toBeTruthy();
    // The token went in the body, never the address; the finished order is no longer offered to resume.
    expect(sent.find((r) => r.path === '/order/summary')?.body).toEqual({ orderNumber: ORDER, orderToken: TOKEN });
    await waitFor(() => expect(window.sessionStorage.getItem('patient-order-open:prostox')).toBeNull());
  });

  it('offers to try the card again after a failed payment', async () => {
    rememberOrder({ orderNumber: ORDER, orderToken: TOKEN }, 'prostox');
    const leave = vi.spyOn(leavePage, 'leavePageFor').mockImplementation(() => {});
    mockApi({
      'POST /order/summary': { body: summary({ paymentStatus: PaymentStatus.PaymentFailed }) },
      'POST /stripe/create-payment-intent': {
        body: { paymentIntentId: 'pi_1', clientSecret: 'pi_1_secret', amountCents: 500_00, currency: 'usd', publishableKey: 'pk_test', checkoutUrl: 'http://127.0.0.1:9999/pay/pi_1' },
      },
    });
    renderComplete();
    expect(await screen.findByText(PAYMENT_FAILED_TITLE)).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try the card again' }));
    await waitFor(() => expect(leave).toHaveBeenCalledWith('http://127.0.0.1:9999/pay/pi_1'));
  });

  it('shows an order the clinic cancelled as cancelled with what became of the payment, and offers no payment', async () => {
    rememberOrder({ orderNumber: ORDER, orderToken: TOKEN }, 'prostox');
    // A card that failed before the cancellation: no "try again" any more.
    const sent = mockApi({ 'POST /order/summary': { body: summary({ stage: PatientOrderStage.Cancelled, paymentStatus: PaymentStatus.PaymentFailed }) } });
    renderComplete();
    expect(await screen.findByText('This order was cancelled')).toBeTruthy();
    expect(screen.getByText(/Your clinic cancelled this order, so it can no longer be paid/)).toBeTruthy();
    expect(screen.getByText('Nothing was charged for it.')).toBeTruthy();
    expect(screen.queryByText(PAYMENT_FAILED_TITLE)).toBeNull();
    expect(screen.queryByRole('button', { name: /pay|card|try/i })).toBeNull();
    expect(sent.some((r) => r.path === '/stripe/create-payment-intent')).toBe(false);
    await waitFor(() => expect(window.sessionStorage.getItem('patient-order-open:prostox')).toBeNull());
  });

  it('says a payment made on a cancelled order is refunded, then refunded', async () => {
    rememberOrder({ orderNumber: ORDER, orderToken: TOKEN }, 'prostox');
    mockApi({ 'POST /order/summary': { body: summary({ stage: PatientOrderStage.Cancelled, paymentStatus: PaymentStatus.RefundPending }) } });
    const first = renderComplete();
    expect(await screen.findByText('Your payment is being refunded to your card.')).toBeTruthy();
    first.unmount();
    mockApi({ 'POST /order/summary': { body: summary({ stage: PatientOrderStage.Cancelled, paymentStatus: PaymentStatus.Refunded }) } });
    renderComplete();
    expect(await screen.findByText('Your payment was refunded to your card.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /pay|card|try/i })).toBeNull();
  });

  it('when the clinic cancelled the order before the card was tried again, says so instead of taking the card', async () => {
    rememberOrder({ orderNumber: ORDER, orderToken: TOKEN }, 'prostox');
    const leave = vi.spyOn(leavePage, 'leavePageFor').mockImplementation(() => {});
    let cancelled = false;
    mockApi({
      'POST /order/summary': () => ({ body: summary(cancelled ? { stage: PatientOrderStage.Cancelled, paymentStatus: PaymentStatus.PaymentFailed } : { paymentStatus: PaymentStatus.PaymentFailed }) }),
      'POST /stripe/create-payment-intent': () => {
        cancelled = true;
        return apiRefusal(409, 'order_cancelled', 'This order was cancelled');
      },
    });
    renderComplete();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Try the card again' }));
    expect(await screen.findByText('This order was cancelled')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /pay|card|try/i })).toBeNull();
    expect(leave).not.toHaveBeenCalled();
  });

  it('says where the order can be seen when this tab does not hold it', async () => {
    const sent = mockApi({});
    renderComplete();
    expect(await screen.findByText(/can only be shown in the browser window it was placed in/)).toBeTruthy();
    expect(sent.some((r) => r.path === '/order/summary')).toBe(false);
  });
});
