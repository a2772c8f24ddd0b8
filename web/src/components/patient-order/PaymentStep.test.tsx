// The payment step and the card step, each rendered alone with the order it is given (walking the
// whole order to reach them is the browser suite's: test/e2e/patient-ordering.test.ts).
import { useState } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PatientOrderStage, PaymentMethod, PaymentStatus, TestName, type PatientOrderSummary } from '@platform/domain';
import { apiRefusal, mockApi, type MockHandler } from '../../test/mock-api';
import { fillIn } from '../../test/fields';
import { renderPage } from '../../test/render';
import { CardPayment } from './CardPayment';
import { PaymentStep } from './PaymentStep';
import * as leavePage from './leave-page';

type User = ReturnType<typeof userEvent.setup>;

const ORDER = 'RPD0123456789';
const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz';
const KEY = { orderNumber: ORDER, orderToken: TOKEN };

const summary = (over: Partial<PatientOrderSummary> = {}): PatientOrderSummary => ({
  orderNumber: ORDER, product: 'prostox', tests: [TestName.ProstoxUltra], accountName: 'Riverside Oncology', paymentMethod: null,
  paymentStatus: PaymentStatus.AwaitingPayment, stage: PatientOrderStage.AwaitingPayment, priceCents: null, donationCents: null,
  mirakind: false, insurancePlanName: null, ...over,
});
const cancelled = summary({ paymentMethod: PaymentMethod.SelfPay, priceCents: 500_00, stage: PatientOrderStage.Cancelled });

/** The payment step as the order flow holds it: the summary it shows is the one the step last chose. */
function FlowPayment({ onCard, onFinish }: { onCard: () => void; onFinish: () => void }) {
  const [current, setCurrent] = useState(summary());
  return <PaymentStep orderKey={KEY} summary={current} onSummary={setCurrent} onCard={onCard} onFinish={onFinish} />;
}

function renderPayment(api: Record<string, MockHandler>) {
  const sent = mockApi({ 'GET /insurance-plans': { body: [{ id: 9, name: 'Blue Harbor PPO' }] }, ...api });
  const onCard = vi.fn();
  const onFinish = vi.fn();
  renderPage(<FlowPayment onCard={onCard} onFinish={onFinish} />);
  return { sent, onCard, onFinish };
}

async function choose(user: User, option: RegExp) {
  await user.click(within(screen.getByRole('radiogroup', { name: /How will you pay/ })).getByRole('radio', { name: option }));
}

/** None of the buttons that would take a payment or go on with the order. */
function noWayToPay() {
  const names = screen.queryAllByRole('button').map((b) => b.getAttribute('aria-label') ?? b.textContent ?? '');
  expect(names.filter((n) => /pay|card|continue|try/i.test(n))).toEqual([]);
}

afterEach(() => vi.restoreAllMocks());

describe('PaymentStep', () => {
  it('shows the self-pay price, then the summary, and the card is the way on', async () => {
    const user = userEvent.setup();
    const { sent, onCard } = renderPayment({ 'POST /order/set-payment': { body: summary({ paymentMethod: PaymentMethod.SelfPay, priceCents: 500_00 }) } });
    await choose(user, /Pay myself: \$500\.00/);
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    const card = await screen.findByTestId('order-summary');
    expect(within(card).getByText('$500.00')).toBeTruthy();
    expect(within(card).queryByTestId('donation-line')).toBeNull();
    // How long an unpaid order waits is said before paying.
    expect(screen.getByTestId('unpaid-order-kept').textContent).toBe('Your order is kept for 3 days. If it is not paid by then, it closes by itself and nothing is charged.');
    await user.click(screen.getByRole('button', { name: 'Pay $500.00 by card' }));
    expect(onCard).toHaveBeenCalledOnce();
    expect(sent.find((r) => r.path === '/order/set-payment')?.body).toEqual({ orderNumber: ORDER, orderToken: TOKEN, method: 'Self-Pay', insurancePlanId: null, insuranceMemberId: null });
  });

  it('shows the MiraKind donation line on the summary', async () => {
    const user = userEvent.setup();
    renderPayment({ 'POST /order/set-payment': { body: summary({ paymentMethod: PaymentMethod.SelfPay, priceCents: 500_00, donationCents: 100_00, mirakind: true }) } });
    await choose(user, /Pay myself/);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByTestId('donation-line')).textContent).toBe(
      'Includes a tax-deductible donation of $100.00 (20% of the price) to MiraKind, our non-profit partner.',
    );
  });

  it('asks for the assistance code and refuses to go on when it does not match an approved record', async () => {
    const user = userEvent.setup();
    const { sent } = renderPayment({ 'POST /patient/financial-assistance-patient-exists': { body: { exists: false } } });
    await choose(user, /Financial assistance: \$100\.00/);
    await fillIn(user, screen.getByRole('textbox', { name: /^Assistance code/ }), 'abcde 23456');
    expect(await screen.findByText(/This code does not match an approved financial assistance for you/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement).disabled).toBe(true);
    // Asked about this order's patient with the code, never about a name.
    expect(sent.find((r) => r.path === '/patient/financial-assistance-patient-exists')?.body).toEqual({ orderNumber: ORDER, orderToken: TOKEN, assistanceCode: 'ABCDE23456' });
  });

  it('with a matching assistance code, chooses the financial-assistance price with that code', async () => {
    const user = userEvent.setup();
    const { sent } = renderPayment({
      'POST /patient/financial-assistance-patient-exists': { body: { exists: true } },
      'POST /order/set-payment': { body: summary({ paymentMethod: PaymentMethod.FinancialAssistance, priceCents: 100_00 }) },
    });
    await choose(user, /Financial assistance/);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Enter the 10 letters and digits of your assistance code')).toBeTruthy();
    await fillIn(user, screen.getByRole('textbox', { name: /^Assistance code/ }), 'ABCDE-23456');
    expect(await screen.findByText('We found your approved financial assistance.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('button', { name: 'Pay $100.00 by card' })).toBeTruthy();
    expect(sent.find((r) => r.path === '/order/set-payment')?.body).toEqual({
      orderNumber: ORDER, orderToken: TOKEN, method: 'Financial Assistance', insurancePlanId: null, insuranceMemberId: null, assistanceCode: 'ABCDE23456',
    });
  });

  it('places an insurance order with nothing to pay', async () => {
    const user = userEvent.setup();
    const { sent, onFinish, onCard } = renderPayment({
      'POST /order/set-payment': {
        body: summary({ paymentMethod: PaymentMethod.Insurance, insurancePlanName: 'Blue Harbor PPO', priceCents: 0, paymentStatus: PaymentStatus.NotCharged, stage: PatientOrderStage.AwaitingSignOff }),
      },
    });
    await choose(user, /^Insurance/);
    await user.click(screen.getByRole('combobox', { name: /^Insurance plan/ }));
    await user.click(await screen.findByRole('option', { name: 'Blue Harbor PPO', hidden: true }));
    await fillIn(user, screen.getByRole('textbox', { name: /^Member ID/ }), 'XJH-4410');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(within(await screen.findByTestId('order-summary')).getByText('No charge')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Place my order' }));
    expect(onFinish).toHaveBeenCalledOnce();
    expect(onCard).not.toHaveBeenCalled();
    expect(sent.find((r) => r.path === '/order/set-payment')?.body).toMatchObject({ method: 'Insurance', insurancePlanId: 9, insuranceMemberId: 'XJH-4410' });
  });

  it('when the clinic cancels before the payment is chosen, the step shows the order cancelled', async () => {
    const user = userEvent.setup();
    renderPayment({
      'POST /order/set-payment': apiRefusal(409, 'order_cancelled', 'This order was cancelled'),
      'POST /order/summary': { body: summary({ stage: PatientOrderStage.Cancelled }) },
    });
    await choose(user, /Pay myself: \$500\.00/);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('This order was cancelled')).toBeTruthy();
    expect(screen.queryByRole('radiogroup', { name: /How will you pay/ })).toBeNull();
    noWayToPay();
  });
});

describe('CardPayment', () => {
  it("goes to the stand-in's card page of the order's payment intent", async () => {
    const leave = vi.spyOn(leavePage, 'leavePageFor').mockImplementation(() => {});
    const sent = mockApi({
      'POST /stripe/create-payment-intent': {
        body: { paymentIntentId: 'pi_1', clientSecret: 'pi_1_secret', amountCents: 500_00, currency: 'usd', publishableKey: 'pk_test', checkoutUrl: 'http://127.0.0.1:9999/pay/pi_1' },
      },
    });
    renderPage(<CardPayment orderKey={KEY} />);
    await waitFor(() => expect(leave).toHaveBeenCalledWith('http://127.0.0.1:9999/pay/pi_1'));
    expect(sent.filter((r) => r.path === '/stripe/create-payment-intent').map((r) => r.body)).toEqual([{ orderNumber: ORDER, orderToken: TOKEN }]);
  });

  it('when the clinic cancels while the patient is paying, shows the order cancelled, with no card to try again', async () => {
    const leave = vi.spyOn(leavePage, 'leavePageFor').mockImplementation(() => {});
    mockApi({
      'POST /stripe/create-payment-intent': apiRefusal(409, 'order_cancelled', 'This order was cancelled'),
      'POST /order/summary': { body: cancelled },
    });
    renderPage(<CardPayment orderKey={KEY} />);
    expect(await screen.findByText('This order was cancelled')).toBeTruthy();
    expect(await screen.findByTestId('order-summary')).toBeTruthy();
    noWayToPay();
    expect(leave).not.toHaveBeenCalled();
  });
});
