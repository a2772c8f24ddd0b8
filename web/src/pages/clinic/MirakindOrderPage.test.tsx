import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AccountRole, AccountType, PatientOrderStage, PaymentStatus, TestName, UserKind, type Me, type PatientOrderSummary } from '@platform/domain';
import { mockApi } from '../../test/mock-api';
import { fillDetails } from '../../components/patient-order/order-form-steps';
import { renderPage } from '../../test/render';
import { MirakindOrderPage } from './MirakindOrderPage';

const riverside = {
  id: 1, name: 'Riverside Oncology', type: AccountType.MiraKind, role: AccountRole.Physician as AccountRole,
  eapPartner: false, international: false, clinicAccess: true, researchAccess: false,
};
const me: Me = {
  user: { id: 7, kind: UserKind.Provider, email: 'physician@demo.test', firstName: 'Paula', lastName: 'Grant' },
  accounts: [riverside],
  currentAccount: riverside,
};
const summary = (over: Partial<PatientOrderSummary> = {}): PatientOrderSummary => ({
  orderNumber: 'RPD0123456789', product: 'kras', tests: [TestName.Kras], accountName: 'Riverside Oncology', paymentMethod: null,
  paymentStatus: PaymentStatus.AwaitingPayment, stage: PatientOrderStage.AwaitingPayment, priceCents: null, donationCents: null,
  mirakind: true, insurancePlanName: null, ...over,
});

describe('MirakindOrderPage', () => {
  it("orders for a patient with the clinic's own account, through MiraKind", async () => {
    const user = userEvent.setup();
    const sent = mockApi({
      'GET /auth/me': { body: me },
      'POST /order/eligibility-inquiry': { body: { eligible: true, tests: [TestName.Kras], problems: [] } },
      'POST /order/create': { status: 201, body: { order: summary(), orderToken: 'tok_abcdefghijklmnopqrstuvwxyz' } },
      'POST /order/set-referral-source': { body: summary() },
      'GET /insurance-plans': { body: [] },
    });
    renderPage(<MirakindOrderPage product="kras" />, { path: '/provider-clinic/:accountId/kras-through-mirakind', route: '/provider-clinic/1/kras-through-mirakind' });
    expect(await screen.findByRole('heading', { name: 'Order KRAS through MiraKind' })).toBeTruthy();

    for (const [question, option] of [[/18 years of age/, 'Yes'], [/KRAS-variant test before/, 'No'], [/close relative/, 'Other'], [/live in the United States/, 'Yes']] as const) {
      await user.click(within(screen.getByRole('radiogroup', { name: question })).getByRole('radio', { name: option }));
    }
    await user.click(screen.getByRole('button', { name: 'Check my answers' }));
    await screen.findByRole('form', { name: 'Your details' });
    // The treating provider is this clinic: nothing to choose.
    expect(screen.getByTestId('treating-provider').textContent).toBe('Riverside Oncology');
    expect(screen.queryByRole('combobox', { name: /Treating provider/ })).toBeNull();
    await fillDetails(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    // The order is the clinic's own, through MiraKind; the steps after it are the patient order's (PaymentStep.test.tsx shows the donation).
    await screen.findByRole('radiogroup', { name: /How did you hear/ });
    expect(sent.find((r) => r.path === '/order/create')?.body).toMatchObject({ product: 'kras', accountId: 1, mirakind: true, invitationToken: null });
    expect(sent.some((r) => r.path === '/order/prostox/get-prp-accounts')).toBe(false);
  });
});
