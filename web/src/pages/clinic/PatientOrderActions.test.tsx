import { useState } from 'react';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AccountRole, attestationsFor, PatientOrderStage, PaymentMethod, PaymentStatus, Portal } from '@platform/domain';
import { mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { findToast, ToastHost } from '../../test/toasts';
import { PatientOrderActions, type PatientOrderInfo } from './PatientOrderActions';

const order: PatientOrderInfo = {
  orderId: 42, orderNumber: 'RPD0123456789', stage: PatientOrderStage.AwaitingSignOff, paymentStatus: PaymentStatus.Paid, paymentMethod: PaymentMethod.SelfPay,
};

/** A self-paid order asks three: the reimbursement claim is not made (the patient paid). */
const ASKED = attestationsFor(Portal.Patient, PaymentMethod.SelfPay);

const renderActions = (role: AccountRole, info: PatientOrderInfo = order) =>
  renderPage(
    <>
      <PatientOrderActions accountId={1} role={role} order={info} patientName="Harold Finch" />
      <ToastHost />
    </>,
  );

describe('PatientOrderActions', () => {
  it("shows the order's stage and payment", () => {
    mockApi({});
    renderActions(AccountRole.SupportStaff);
    expect(screen.getByText('Awaiting Sign-off')).toBeTruthy();
    expect(screen.getByText('Self-Pay · Paid')).toBeTruthy();
    // Support staff neither sign off nor cancel.
    expect(screen.queryByRole('button', { name: /Sign off/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Cancel order/ })).toBeNull();
  });

  it('lets a physician sign off once the attestations its payment asks are confirmed, with the patient\'s answers at hand', async () => {
    const user = userEvent.setup();
    const sent = mockApi({
      'GET /provider-clinic/1/patient-orders/42/sign-off': {
        body: { match: null, answers: [{ question: 'Are you 18 years of age or older?', answer: 'Yes' }], attestations: ASKED.map((a) => a.key) },
      },
      'POST /provider-clinic/1/patient-orders/42/sign-off': { body: {} },
    });
    renderActions(AccountRole.Physician);
    await user.click(screen.getByRole('button', { name: 'Sign off order RPD0123456789' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign off order RPD0123456789' });
    for (const a of ASKED) expect(within(dialog).getByRole('checkbox', { name: a.label })).toBeTruthy();
    // Paid by card: no insurance claim to attest (it was asked before: issue 25, item 9).
    expect(within(dialog).queryByRole('checkbox', { name: /claim for reimbursement/ })).toBeNull();
    const answers = await within(dialog).findByLabelText("The patient's eligibility answers");
    expect(within(answers).getByText('Are you 18 years of age or older?')).toBeTruthy();

    await user.click(within(dialog).getByRole('checkbox', { name: ASKED[0].label }));
    await user.click(within(dialog).getByRole('button', { name: 'Sign off the order' }));
    expect(await within(dialog).findByText(/Confirm every attestation \(informed consent/)).toBeTruthy();
    expect(sent.some((r) => r.method === 'POST')).toBe(false);

    for (const a of ASKED.slice(1)) await user.click(within(dialog).getByRole('checkbox', { name: a.label }));
    expect(within(dialog).queryByText(/Confirm every attestation/)).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Sign off the order' }));
    await findToast('Order RPD0123456789 signed off: the kit ships to the patient');
    expect(sent.find((r) => r.method === 'POST' && r.path === '/provider-clinic/1/patient-orders/42/sign-off')?.body).toEqual({
      attestations: Object.fromEntries(ASKED.map((a) => [a.key, true])),
    });
  });

  it('asks whether the patient is one the account already has, and sends the answer with the sign-off', async () => {
    const user = userEvent.setup();
    const sent = mockApi({
      'GET /provider-clinic/1/patient-orders/42/sign-off': {
        body: {
          match: { patientId: 7, name: 'Harold Finch', dateOfBirth: '1957-08-19', email: 'h.finch@clinic.test', phone: null, since: '2025-01-02T00:00:00Z' },
          answers: [], attestations: ASKED.map((a) => a.key),
        },
      },
      'POST /provider-clinic/1/patient-orders/42/sign-off': { body: {} },
    });
    renderActions(AccountRole.Physician);
    await user.click(screen.getByRole('button', { name: 'Sign off order RPD0123456789' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign off order RPD0123456789' });
    const question = await within(dialog).findByRole('radiogroup', { name: /Harold Finch, born 08\/19\/1957, is already a patient of this account \(h\.finch@clinic\.test\)\. Is this the same person\?/ });
    for (const a of ASKED) await user.click(within(dialog).getByRole('checkbox', { name: a.label }));
    await user.click(within(dialog).getByRole('button', { name: 'Sign off the order' }));
    expect(await within(dialog).findByText('Say whether they are the same person')).toBeTruthy();
    expect(sent.some((r) => r.method === 'POST')).toBe(false);

    await user.click(within(question).getByRole('radio', { name: /^Yes: file this order under their record/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Sign off the order' }));
    await findToast('Order RPD0123456789 signed off: the kit ships to the patient');
    expect(sent.find((r) => r.method === 'POST' && r.path === '/provider-clinic/1/patient-orders/42/sign-off')?.body).toEqual({
      attestations: Object.fromEntries(ASKED.map((a) => [a.key, true])),
      patientMatch: { patientId: 7, samePerson: true },
    });
  });

  it('cancels with a reason and says a paid order is refunded', async () => {
    const user = userEvent.setup();
    const sent = mockApi({ 'POST /provider-clinic/1/patient-orders/42/cancel': { body: {} } });
    renderActions(AccountRole.SuperAdmin);
    expect(screen.queryByRole('button', { name: /Sign off/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Cancel order RPD0123456789' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel order RPD0123456789' });
    expect(within(dialog).getByText('The patient paid by card: the payment is refunded.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the order' }));
    expect(await within(dialog).findByText('Give the reason for cancelling')).toBeTruthy();
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Patient chose another lab');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the order' }));
    await findToast('Order RPD0123456789 cancelled');
    await waitFor(() => expect(sent.find((r) => r.path === '/provider-clinic/1/patient-orders/42/cancel')?.body).toEqual({ reason: 'Patient chose another lab' }));
  });

  describe('focus when a dialog closes', () => {
    let showOrder: (info: PatientOrderInfo) => void = () => {};
    /** The pending page's heading and one row's actions; the list read again gives the row its new order. */
    function Row() {
      const [info, setInfo] = useState(order);
      showOrder = setInfo;
      return (
        <>
          <h1 tabIndex={-1}>Pending tests</h1>
          <PatientOrderActions accountId={1} role={AccountRole.Physician} order={info} patientName="Harold Finch" />
          <ToastHost />
        </>
      );
    }

    it('"Not now" and Escape give the focus back to the button that opened the dialog', async () => {
      const user = userEvent.setup();
      mockApi({});
      renderPage(<Row />);
      const signOff = screen.getByRole('button', { name: 'Sign off order RPD0123456789' });
      await user.click(signOff);
      await user.click(within(await screen.findByRole('dialog', { name: 'Sign off order RPD0123456789' })).getByRole('button', { name: 'Not now' }));
      await waitFor(() => expect(document.activeElement).toBe(signOff));

      const cancel = screen.getByRole('button', { name: 'Cancel order RPD0123456789' });
      await user.click(cancel);
      await screen.findByRole('dialog', { name: 'Cancel order RPD0123456789' });
      await user.keyboard('{Escape}');
      await waitFor(() => expect(document.activeElement).toBe(cancel));
    });

    it('a sign-off gives the focus back to Sign off, then to the heading once the order read again has no Sign off', async () => {
      const user = userEvent.setup();
      mockApi({ 'POST /provider-clinic/1/patient-orders/42/sign-off': { body: {} } });
      renderPage(<Row />);
      const signOff = screen.getByRole('button', { name: 'Sign off order RPD0123456789' });
      await user.click(signOff);
      const dialog = await screen.findByRole('dialog', { name: 'Sign off order RPD0123456789' });
      for (const a of ASKED) await user.click(within(dialog).getByRole('checkbox', { name: a.label }));
      await user.click(within(dialog).getByRole('button', { name: 'Sign off the order' }));
      await findToast('Order RPD0123456789 signed off: the kit ships to the patient');
      await waitFor(() => expect(document.activeElement).toBe(signOff));

      act(() => showOrder({ ...order, stage: PatientOrderStage.SignedOff }));
      expect(screen.queryByRole('button', { name: 'Sign off order RPD0123456789' })).toBeNull();
      await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Pending tests' })));
    });
  });
});
