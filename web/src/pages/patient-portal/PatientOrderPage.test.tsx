import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  PatientOrderStage, PaymentMethod, PaymentStatus, TestName, type InvitationPrefill, type PatientOrderSummary,
} from '@platform/domain';
import { apiRefusal, mockApi, type MockHandler } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { chooseProvider, fillDetails } from '../../components/patient-order/order-form-steps';
import { NOT_ELIGIBLE_TITLE, NOTHING_CHARGED } from '../../components/patient-order/EligibilityStep';
import { choosePatientLanguage } from '../../i18n/patient-language';
import { PatientOrderPage } from './PatientOrderPage';
import * as leavePage from '../../components/patient-order/leave-page';

type User = ReturnType<typeof userEvent.setup>;

const ORDER = 'RPD0123456789';
const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz';

const summary = (over: Partial<PatientOrderSummary> = {}): PatientOrderSummary => ({
  orderNumber: ORDER, product: 'prostox', tests: [TestName.ProstoxUltra], accountName: 'Riverside Oncology', paymentMethod: null,
  paymentStatus: PaymentStatus.AwaitingPayment, stage: PatientOrderStage.AwaitingPayment, priceCents: null, donationCents: null,
  mirakind: false, insurancePlanName: null, ...over,
});

const ELIGIBLE = { eligible: true, tests: [TestName.ProstoxUltra], problems: [] };

function patientApi(extra: Record<string, MockHandler> = {}) {
  return mockApi({
    'POST /order/eligibility-inquiry': { body: ELIGIBLE },
    'GET /order/prostox/get-prp-accounts': { body: [{ id: 3, name: 'Riverside Oncology' }, { id: 4, name: 'Lakeside Urology' }] },
    'POST /order/create': { status: 201, body: { order: summary(), orderToken: TOKEN } },
    'POST /order/set-referral-source': { body: summary() },
    'GET /insurance-plans': { body: [{ id: 9, name: 'Blue Harbor PPO' }] },
    ...extra,
  });
}

const renderOrder = (search = '') =>
  renderPage(<PatientOrderPage product="prostox" />, { path: '/patient-portal/order/prostox/new', route: `/patient-portal/order/prostox/new${search}` });

const group = (name: RegExp) => screen.getByRole('radiogroup', { name });

async function choose(user: User, question: RegExp, option: string | RegExp) {
  await user.click(within(group(question)).getByRole('radio', { name: option }));
}

/** Answers PROSTOX's questions (ultra), changing any given in `over`, and sends them. */
async function answerEligibility(user: User, over: Record<string, string> = {}) {
  await screen.findByRole('radiogroup', { name: /18 years of age/ });
  await choose(user, /18 years of age/, 'Yes');
  await choose(user, /diagnosed with prostate cancer/, over.diagnosis ?? 'Yes');
  await choose(user, /planned or being considered/, 'Yes');
  await choose(user, /already completed/, 'No');
  await choose(user, /Which type of radiation/, 'Photons');
  await choose(user, /schedule is being considered/, /PROSTOX ultra/);
  await choose(user, /live in the United States/, 'Yes');
  await user.click(screen.getByRole('button', { name: 'Check my answers' }));
}


afterEach(() => {
  window.sessionStorage.clear();
  vi.restoreAllMocks();
});

describe('PatientOrderPage: eligibility', () => {
  it('stops an ineligible patient with each reason and what to do, and orders nothing', async () => {
    const user = userEvent.setup();
    const sent = patientApi({
      'POST /order/eligibility-inquiry': {
        body: {
          eligible: false, tests: [],
          problems: [{ questionId: 'diagnosis', question: 'Have you been diagnosed with prostate cancer?', reason: 'PROSTOX needs a prostate cancer diagnosis.', guidance: 'Talk to your doctor.' }],
        },
      },
    });
    renderOrder();
    await answerEligibility(user, { diagnosis: 'No' });

    const problems = await screen.findByTestId('eligibility-problems');
    expect(screen.getByText(NOT_ELIGIBLE_TITLE)).toBeTruthy();
    expect(within(problems).getByText('PROSTOX needs a prostate cancer diagnosis.')).toBeTruthy();
    expect(within(problems).getByText('Talk to your doctor.')).toBeTruthy();
    expect(within(problems).getByText(NOTHING_CHARGED)).toBeTruthy();
    // The flow stops: still the first step, nothing created, no payment.
    expect((screen.getByRole('button', { name: 'Check my answers' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Step 1 of 5')).toBeTruthy();
    expect(sent.find((r) => r.path === '/order/eligibility-inquiry')?.body).toMatchObject({ product: 'prostox', answers: { diagnosis: 'No', treatmentOption: 'ultra' } });
    expect(sent.some((r) => r.path === '/order/create' || r.path === '/stripe/create-payment-intent')).toBe(false);
  });

  it('asks for every question before sending', async () => {
    const user = userEvent.setup();
    const sent = patientApi();
    renderOrder();
    await screen.findByRole('radiogroup', { name: /18 years of age/ });
    await user.click(screen.getByRole('button', { name: 'Check my answers' }));
    expect(await screen.findAllByText('Please answer this question')).toHaveLength(7);
    expect(sent.some((r) => r.method === 'POST')).toBe(false);
  });
});

// The details, payment and card steps are tested each on its own (DetailsStep.test.tsx, PaymentStep.test.tsx).

describe('PatientOrderPage: an order the clinic cancelled', () => {
  const cancelled = summary({ paymentMethod: PaymentMethod.SelfPay, priceCents: 500_00, stage: PatientOrderStage.Cancelled });
  /** None of the buttons that would take a payment or go on with the order (the stepper's own steps aside). */
  const noWayToPay = () => {
    const names = screen.queryAllByRole('button').map((b) => b.getAttribute('aria-label') ?? b.textContent ?? '').filter((n) => !/^Step \d/.test(n));
    expect(names.filter((n) => /pay|card|continue|try/i.test(n))).toEqual([]);
  };

  it('shows the order this tab started as cancelled, with no way to pay it; a new order can be started instead', async () => {
    const user = userEvent.setup();
    window.sessionStorage.setItem(`patient-order-token:${ORDER}`, TOKEN);
    window.sessionStorage.setItem('patient-order-open:prostox', ORDER);
    const sent = patientApi({ 'POST /order/summary': { body: cancelled } });
    renderOrder();
    expect(await screen.findByText('This order was cancelled')).toBeTruthy();
    expect(screen.getByText(/Your clinic cancelled this order, so it can no longer be paid/)).toBeTruthy();
    expect(screen.getByText('Nothing was charged for it.')).toBeTruthy();
    expect(within(screen.getByTestId('order-summary')).getByText(ORDER)).toBeTruthy();
    noWayToPay();
    expect(sent.some((r) => r.path === '/stripe/create-payment-intent')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Start a new order' }));
    expect(await screen.findByRole('radiogroup', { name: /18 years of age/ })).toBeTruthy();
    expect(window.sessionStorage.getItem('patient-order-open:prostox')).toBeNull();
  });
});

describe('PatientOrderPage: an unpaid order of this tab', () => {
  it('a reload picks the order up at the payment step; starting a new one instead names it, so it is cancelled', async () => {
    const user = userEvent.setup();
    window.sessionStorage.setItem(`patient-order-token:${ORDER}`, TOKEN);
    window.sessionStorage.setItem('patient-order-open:prostox', ORDER);
    const sent = patientApi({ 'POST /order/summary': { body: summary() } });
    renderOrder();
    expect(await screen.findByRole('radiogroup', { name: /How will you pay/ })).toBeTruthy();
    expect(screen.getByText(`Order ${ORDER} is waiting for payment.`)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Start a new order instead (this one is then cancelled)' }));
    await answerEligibility(user);
    await screen.findByRole('form', { name: 'Your details' });
    await fillDetails(user);
    await chooseProvider(user, 'Riverside Oncology');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('radiogroup', { name: /How did you hear/ });
    expect(sent.find((r) => r.path === '/order/create')?.body).toMatchObject({ replaces: { orderNumber: ORDER, orderToken: TOKEN } });
  });
});

describe('PatientOrderPage: invitations', () => {
  const prefill: InvitationPrefill = { accountId: 3, accountName: 'Riverside Oncology', product: 'prostox', email: 'harold@example.test', firstName: 'Harold', lastName: 'Finch' };

  it('fills in the clinic, email and names from the invitation, and sends its token', async () => {
    const user = userEvent.setup();
    const sent = patientApi({ 'POST /order/invitation': { body: prefill } });
    renderOrder('?invitation=inv_abcdefghijklmnopqrstuvwxyz');
    expect(await screen.findByText('Invited by Riverside Oncology')).toBeTruthy();
    await answerEligibility(user);
    await screen.findByRole('form', { name: 'Your details' });
    expect((screen.getByRole('textbox', { name: /^First name/ }) as HTMLInputElement).value).toBe('Harold');
    expect((screen.getByRole('textbox', { name: /^Last name/ }) as HTMLInputElement).value).toBe('Finch');
    expect((screen.getByRole('textbox', { name: /^Email/ }) as HTMLInputElement).value).toBe('harold@example.test');
    expect(screen.getByTestId('treating-provider').textContent).toBe('Riverside Oncology');
    await fillDetails(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('radiogroup', { name: /How did you hear/ });
    // The order token is this tab's, never in the address.
    expect(window.sessionStorage.getItem(`patient-order-token:${ORDER}`)).toBe(TOKEN);
    expect(sent.find((r) => r.path === '/order/invitation')?.body).toEqual({ invitationToken: 'inv_abcdefghijklmnopqrstuvwxyz' });
    expect(sent.find((r) => r.path === '/order/create')?.body).toMatchObject({ accountId: 3, invitationToken: 'inv_abcdefghijklmnopqrstuvwxyz' });
    expect(sent.some((r) => r.path === '/order/prostox/get-prp-accounts')).toBe(false);
  });

  it('says plainly that a used invitation cannot be used again', async () => {
    patientApi({ 'POST /order/invitation': apiRefusal(410, 'gone', 'This invitation has already been used') });
    renderOrder('?invitation=inv_abcdefghijklmnopqrstuvwxyz');
    expect(await screen.findByText('This invitation has already been used')).toBeTruthy();
    expect(screen.getByText('This invitation cannot be used')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'order PROSTOX without the invitation' }).getAttribute('href')).toBe('/patient-portal/order/prostox/new');
    // The page says it itself: no error modal.
    expect(screen.queryByText('Request failed with status code 410')).toBeNull();
  });
});

describe('PatientOrderPage in Spanish', () => {
  afterEach(() => choosePatientLanguage('en'));

  it('the switch shows the questions, answers and ineligibility reasons in Spanish; the answers sent stay the spec values', async () => {
    const sent = patientApi({
      'POST /order/eligibility-inquiry': {
        body: { eligible: false, tests: [], problems: [{ questionId: 'adult', question: 'Are you 18 years of age or older?', reason: 'Patients must be 18 or older to order a test themselves.', guidance: 'A parent or guardian can ask the treating clinic to order the test.' }] },
      },
    });
    const user = userEvent.setup();
    renderOrder();
    await screen.findByRole('radiogroup', { name: /18 years of age/ });
    await user.click(within(screen.getByRole('group', { name: 'Language / Idioma' })).getByRole('button', { name: 'Español' }));
    expect(await screen.findByRole('heading', { name: 'Pedir PROSTOX' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Requisitos' })).toBeTruthy();
    const adult = screen.getByRole('radiogroup', { name: /¿Tiene 18 años o más\?/ });
    expect(within(adult).getByRole('radio', { name: 'Sí' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Fotones (Photons)' })).toBeTruthy();
    expect(screen.queryByRole('radiogroup', { name: /18 years of age/ })).toBeNull();

    await user.click(within(adult).getByRole('radio', { name: 'No' }));
    for (const name of [/cáncer de próstata/, /planeada o en consideración/, /Vive en los Estados Unidos/]) {
      await user.click(within(screen.getByRole('radiogroup', { name })).getByRole('radio', { name: 'Sí' }));
    }
    await user.click(within(screen.getByRole('radiogroup', { name: /Ya terminó/ })).getByRole('radio', { name: 'No' }));
    await user.click(screen.getByRole('radio', { name: 'Fotones (Photons)' }));
    await user.click(screen.getByRole('radio', { name: /PROSTOX ultra/ }));
    await user.click(screen.getByRole('button', { name: 'Comprobar mis respuestas' }));
    expect(await screen.findByText('Esta prueba no es el paso adecuado para usted ahora')).toBeTruthy();
    expect(screen.getByText('Los pacientes deben tener 18 años o más para pedir una prueba por su cuenta.')).toBeTruthy();
    // The stored answers stay the spec's values.
    expect(sent.find((r) => r.path === '/order/eligibility-inquiry')!.body).toMatchObject({ answers: { adult: 'No', radiationType: 'Photons' } });
  });
});
