// The patient's details step alone, with the eligibility answers it is given (the page walks to it in
// PatientOrderPage.test.tsx's invitation test, and the browser suite walks the whole order).
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { TestName, type EligibilityAnswers } from '@platform/domain';
import { apiRefusal, mockApi, type MockHandler } from '../../test/mock-api';
import { describedText } from '../../test/fields';
import { renderPage } from '../../test/render';
import { chooseProvider, fillDetails } from './order-form-steps';
import { DetailsStep } from './DetailsStep';
import { EMPTY_PATIENT } from './patient-values';

type User = ReturnType<typeof userEvent.setup>;

const ANSWERS = { adult: 'Yes', diagnosis: 'Yes', radiationPlanned: 'Yes', radiationCompleted: 'No', radiationType: 'Photons', treatmentOption: 'ultra', livesInUs: 'Yes' } as unknown as EligibilityAnswers;
const CREATED = {
  order: {
    orderNumber: 'RPD0123456789', product: 'prostox', tests: [TestName.ProstoxUltra], accountName: 'Riverside Oncology', paymentMethod: null,
    paymentStatus: 'Awaiting Payment', stage: 'Awaiting Payment', priceCents: null, donationCents: null, mirakind: false, insurancePlanName: null,
  },
  orderToken: 'tok_abcdefghijklmnopqrstuvwxyz',
};

function renderDetails(api: Record<string, MockHandler> = {}) {
  const sent = mockApi({
    'GET /order/prostox/get-prp-accounts': { body: [{ id: 3, name: 'Riverside Oncology' }, { id: 4, name: 'Lakeside Urology' }] },
    'POST /order/create': { status: 201, body: CREATED },
    ...api,
  });
  const onCreated = vi.fn();
  renderPage(<DetailsStep product="prostox" answers={ANSWERS} patient={EMPTY_PATIENT} fixedAccount={null} invitationToken={null} mirakind={false} onCreated={onCreated} />);
  return { sent, onCreated };
}

const field = (label: string) => screen.getByRole('textbox', { name: new RegExp(`^${label}`) });


describe('DetailsStep', () => {
  it('checks the date of birth in its boxes: the error is under them, read with the first box, which takes the focus', async () => {
    const user = userEvent.setup({ delay: null });
    const { sent, onCreated } = renderDetails();
    await fillDetails(user, { dateOfBirth: '1957-13-40' });
    await chooseProvider(user, 'Riverside Oncology');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const month = field('Month');
    await waitFor(() => expect(document.activeElement).toBe(month));
    expect(screen.getByRole('alert').textContent).toBe('That date does not exist. Please check the month, day and year.');
    expect(describedText(month)).toContain('That date does not exist.');
    expect(sent.some((r) => r.path === '/order/create')).toBe(false);
    expect(onCreated).not.toHaveBeenCalled();

  });

  it("puts the server's field messages on the fields they name", async () => {
    const user = userEvent.setup({ delay: null });
    const { sent, onCreated } = renderDetails({
      'POST /order/create': apiRefusal(400, 'validation', 'The order is not valid', [
        { field: 'patient.postalCode', message: 'ZIP code must be 5 digits, or 5+4 digits like 94110-1234' },
        { field: 'accountId', message: 'Treating provider does not take patient orders' },
      ]),
    });
    await fillDetails(user);
    await chooseProvider(user, 'Lakeside Urology');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    await waitFor(() => expect(describedText(field('ZIP code'))).toContain('ZIP code must be 5 digits'));
    expect(describedText(screen.getByRole('combobox', { name: /^Treating provider/ }))).toContain('Treating provider does not take patient orders');
    expect(screen.queryByText('Your order was not created')).toBeNull();
    expect(onCreated).not.toHaveBeenCalled();
    expect(sent.find((r) => r.path === '/order/create')?.body).toMatchObject({
      product: 'prostox', accountId: 4, invitationToken: null, mirakind: false, answers: ANSWERS,
      patient: { firstName: 'Harold', lastName: 'Finch', dateOfBirth: '1957-08-19', state: 'IL', postalCode: '62701', phone: null, addressLine2: null },
    });
  });

  it('hands the created order and the patient on', async () => {
    const user = userEvent.setup({ delay: null });
    const { onCreated } = renderDetails();
    await fillDetails(user);
    await chooseProvider(user, 'Riverside Oncology');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledOnce());
    expect(onCreated.mock.calls[0][0]).toEqual(CREATED);
    expect(onCreated.mock.calls[0][1]).toMatchObject({ firstName: 'Harold', lastName: 'Finch', dateOfBirth: '1957-08-19' });
  });
});
