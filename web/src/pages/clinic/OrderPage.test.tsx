import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AccountRole, AccountType, DIAGNOSIS_REQUIRED_MESSAGE, UserKind, type Me } from '@platform/domain';
import { apiRefusal, mockApi, type MockHandler } from '../../test/mock-api';
import { describedText } from '../../test/fields';
import { renderPage } from '../../test/render';
import { ErrorModalHost } from '../../components/ErrorModalHost';
import { NO_PHYSICIAN_NOTICE, OrderPage } from './OrderPage';

const riverside = {
  id: 1, name: 'Riverside Oncology', type: AccountType.General, role: AccountRole.Physician as AccountRole,
  eapPartner: false, international: false, clinicAccess: true, researchAccess: false,
};
const meAs = (role: AccountRole): Me => ({
  user: { id: 7, kind: UserKind.Provider, email: 'physician@demo.test', firstName: 'Paula', lastName: 'Grant' },
  accounts: [{ ...riverside, role }],
  currentAccount: { ...riverside, role },
});
const patient = { id: 5, firstName: 'Imogen', lastName: 'Brightwater', dateOfBirth: '1959-10-03', sex: 'F', email: null, phone: null };

function clinicApi(me: Me, extra: Record<string, MockHandler> = {}) {
  return mockApi({
    'GET /auth/me': { body: me },
    // The physicians this caller may order for (a physician: themself; staff: those they are linked to).
    'GET /provider-clinic/1/get-physicians-by-contact': {
      body: [
        // The API marks the signed-in user's own physician record (a physician signed in; support staff have none).
        { id: 10, firstName: 'Paula', lastName: 'Grant', name: 'Paula Grant', npi: '1234567893', specialty: null, isCaller: me.currentAccount?.role === AccountRole.Physician },
        { id: 11, firstName: 'Omar', lastName: 'Reyes', name: 'Omar Reyes', npi: '1987654321', specialty: null, isCaller: false },
      ],
    },
    'GET /provider-clinic/1/tests/catalogue': {
      body: [
        { name: 'PROSTOX ultra', parentType: null, research: false },
        { name: 'KRAS', parentType: null, research: false },
      ],
    },
    'GET /provider-clinic/1/patient/5': { body: { patient: { ...patient, createdAt: '2026-01-01T00:00:00Z' }, samples: [], corrections: [] } },
    'GET /provider-clinic/1/diagnosis-codes': {
      body: { rows: [{ code: 'C61', display: 'C61', description: 'Malignant neoplasm of prostate' }, { code: 'Z8546', display: 'Z85.46', description: 'Personal history of malignant neoplasm of prostate' }], total: 2, edition: 'ICD-10-CM FY2026' },
    },
    ...extra,
  });
}

const renderOrder = (patientId?: number) =>
  renderPage(<><OrderPage /><ErrorModalHost /></>, { path: '/provider-clinic/:accountId/order', route: `/provider-clinic/1/order${patientId ? `?patientId=${patientId}` : ''}` });

const physicianBox = () => screen.getByRole('combobox', { name: /Ordering physician/ });

/** Finds a diagnosis by words and adds it to the order. */
async function addDiagnosis(user: ReturnType<typeof userEvent.setup>, words = 'prostate') {
  await user.click(screen.getByRole('textbox', { name: /Find a diagnosis/ }));
  await user.paste(words);
  await user.click(await screen.findByRole('button', { name: 'Add C61 Malignant neoplasm of prostate' }));
}

/** A physician orders KRAS for the pre-chosen patient, with a diagnosis, confirming the attestations. */
async function placeKrasOrder(user: ReturnType<typeof userEvent.setup>) {
    await screen.findByText('Imogen Brightwater');
    await user.click(await screen.findByRole('checkbox', { name: 'KRAS' }));
    await addDiagnosis(user);
    await user.click(screen.getByRole('button', { name: 'Confirm all four' }));
    await waitFor(() => expect((physicianBox() as HTMLInputElement).value).toContain('Paula Grant'));
    await user.click(screen.getByRole('button', { name: 'Place order' }));
}

describe('OrderPage', () => {
  it('pre-selects the signed-in physician as the ordering physician', async () => {
    clinicApi(meAs(AccountRole.Physician));
    renderOrder();
    await waitFor(() => expect((physicianBox() as HTMLInputElement).value).toBe('Paula Grant (NPI 1234567893)'));
    // Choosing them again (from habit) keeps them chosen.
    const user = userEvent.setup();
    await user.click(physicianBox());
    await user.click(await screen.findByRole('option', { name: /Paula Grant/, hidden: true }));
    expect((physicianBox() as HTMLInputElement).value).toBe('Paula Grant (NPI 1234567893)');
  });

  it('leaves the ordering physician to choose for support staff', async () => {
    clinicApi(meAs(AccountRole.SupportStaff));
    renderOrder();
    await screen.findByRole('checkbox', { name: 'KRAS' });
    expect((physicianBox() as HTMLInputElement).value).toBe('');
  });

  it('clears each validation error as soon as its field is fixed', async () => {
    const user = userEvent.setup();
    clinicApi(meAs(AccountRole.SupportStaff));
    renderOrder(5);
    await screen.findByText('Imogen Brightwater');
    await screen.findByRole('checkbox', { name: 'KRAS' });
    await user.click(screen.getByRole('button', { name: 'Place order' }));

    await screen.findByText('Choose at least one test');
    expect(screen.getByText('Choose the ordering physician')).toBeTruthy();
    expect(screen.getByText(/Confirm every attestation/)).toBeTruthy();

    await user.click(screen.getByRole('checkbox', { name: 'KRAS' }));
    expect(screen.queryByText('Choose at least one test')).toBeNull();
    expect(screen.getByText(/Confirm every attestation/)).toBeTruthy();

    await user.click(physicianBox());
    await user.click(await screen.findByRole('option', { name: /Omar Reyes/, hidden: true }));
    expect(screen.queryByText('Choose the ordering physician')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Confirm all four' }));
    expect(screen.queryByText(/Confirm every attestation/)).toBeNull();
  });

  it("shows the server's field errors on the fields they name", async () => {
    const user = userEvent.setup();
    const sent = clinicApi(meAs(AccountRole.Physician), {
      'POST /provider-clinic/1/order': apiRefusal(400, 'validation', 'The order is not valid', [
        { field: 'physicianId', message: 'The physician is not one of this account' },
        { field: 'tests.0', message: 'KRAS cannot be ordered here' },
      ]),
    });
    renderOrder(5);
    await placeKrasOrder(user);

    await waitFor(() => expect(describedText(physicianBox())).toContain('The physician is not one of this account'));
    expect(describedText(screen.getByRole('group', { name: /^Test/ }))).toContain('KRAS cannot be ordered here');
    expect(screen.queryByText('The order was not placed')).toBeNull();
    // A refusal the form explains opens no error modal.
    expect(screen.queryByText('Request failed with status code 400')).toBeNull();
    expect(sent.find((r) => r.method === 'POST')?.body).toMatchObject({ patientId: 5, tests: ['KRAS'], physicianId: 10, diagnosisCodes: ['C61'] });
  });

  it('asks for a diagnosis code for a billed test, found by words; a research test may go without', async () => {
    const user = userEvent.setup();
    const sent = clinicApi(meAs(AccountRole.Physician), {
      'GET /provider-clinic/1/tests/catalogue': { body: [{ name: 'KRAS', parentType: null, research: false }, { name: 'PROSTOX Research', parentType: null, research: true }] },
      'POST /provider-clinic/1/order': apiRefusal(400, 'validation', 'The order is not valid', [
        { field: 'diagnosisCodes', message: 'C61.9 is not ICD-10-CM code of the ICD-10-CM FY2026 list' },
      ]),
    });
    renderOrder(5);
    await screen.findByText('Imogen Brightwater');
    const search = screen.getByRole('textbox', { name: /Find a diagnosis/ });
    expect(describedText(search)).toContain('Optional for research tests');
    await user.click(await screen.findByRole('checkbox', { name: 'KRAS' }));
    expect(describedText(search)).toContain('At least one is required');
    await user.click(screen.getByRole('button', { name: 'Confirm all four' }));
    await waitFor(() => expect((physicianBox() as HTMLInputElement).value).toContain('Paula Grant'));
    await user.click(screen.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(describedText(search)).toContain(DIAGNOSIS_REQUIRED_MESSAGE));
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);

    // Found by words, added, then removable; the search asks the API with the words typed.
    await addDiagnosis(user, 'prostate cancer');
    expect(sent.some((r) => r.path.startsWith('/provider-clinic/1/diagnosis-codes?q=prostate+cancer'))).toBe(true);
    const chosen = screen.getByRole('list', { name: 'Diagnosis codes of this order' });
    expect(within(chosen).getByText('Malignant neoplasm of prostate')).toBeTruthy();
    expect(describedText(search)).not.toContain(DIAGNOSIS_REQUIRED_MESSAGE);
    await user.click(screen.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(describedText(search)).toContain('C61.9 is not ICD-10-CM code'));
    expect(sent.find((r) => r.method === 'POST')?.body).toMatchObject({ tests: ['KRAS'], diagnosisCodes: ['C61'] });
    await user.click(within(chosen).getByRole('button', { name: 'Remove C61' }));
    expect(screen.queryByRole('list', { name: 'Diagnosis codes of this order' })).toBeNull();
  });

  it('asks when the clinic collected the sample: optional, sent as an instant when given, never in the future; the server refusal on its field', async () => {
    const user = userEvent.setup();
    const sent = clinicApi(meAs(AccountRole.Physician), {
      'POST /provider-clinic/1/order': apiRefusal(400, 'validation', 'The order is not valid', [
        { field: 'collectedAt', message: 'The collection time cannot be more than 24 hours before the order was placed (11/20/2026 3:00 PM UTC)' },
      ]),
    });
    renderOrder(5);
    const collected = await screen.findByLabelText(/^Collected at/);
    expect(describedText(collected)).toContain('the lab asks for it when the kit arrives');
    // In the future: said on the field, nothing sent.
    await user.type(collected, '2099-01-01T10:00');
    await placeKrasOrder(user);
    await waitFor(() => expect(describedText(collected)).toContain('The collection time cannot be in the future'));
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);
    await user.clear(collected);
    await user.type(collected, '2026-11-19T09:30');
    await user.click(screen.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(describedText(collected)).toContain('The collection time cannot be more than 24 hours before the order was placed'));
    expect(sent.find((r) => r.method === 'POST')?.body).toMatchObject({ patientId: 5, tests: ['KRAS'], collectedAt: new Date('2026-11-19T09:30').toISOString() });
  });

  it('places an order without a collection time when none is given', async () => {
    const user = userEvent.setup();
    const sent = clinicApi(meAs(AccountRole.Physician), { 'POST /provider-clinic/1/order': apiRefusal(404, 'not_found', 'The patient was not found') });
    renderOrder(5);
    await placeKrasOrder(user);
    await waitFor(() => expect(sent.some((r) => r.method === 'POST')).toBe(true));
    expect(Object.keys(sent.find((r) => r.method === 'POST')!.body as object)).not.toContain('collectedAt');
  });

  it('shows a refusal that names no field above the button', async () => {
    const user = userEvent.setup();
    clinicApi(meAs(AccountRole.Physician), { 'POST /provider-clinic/1/order': apiRefusal(404, 'not_found', 'The patient was not found') });
    renderOrder(5);
    await placeKrasOrder(user);
    expect(await screen.findByText('The patient was not found')).toBeTruthy();
    expect(screen.getByText('The order was not placed')).toBeTruthy();
    expect(screen.queryByText('Request failed with status code 404')).toBeNull();
  });

  it('says so, and places no order, when the person may order for no physician', async () => {
    const user = userEvent.setup();
    const sent = clinicApi(meAs(AccountRole.SupportStaff), { 'GET /provider-clinic/1/get-physicians-by-contact': { body: [] } });
    renderOrder(5);
    expect(await screen.findByText(NO_PHYSICIAN_NOTICE)).toBeTruthy();
    expect(sent.some((r) => r.path === '/provider-clinic/1/physicians')).toBe(false);
    const place = screen.getByRole('button', { name: 'Place order' }) as HTMLButtonElement;
    expect(place.disabled).toBe(true);
    expect((physicianBox() as HTMLInputElement).disabled).toBe(true);
    await user.click(place);
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('opens the error modal when the server fails', async () => {
    const user = userEvent.setup();
    clinicApi(meAs(AccountRole.Physician), { 'POST /provider-clinic/1/order': apiRefusal(500, 'internal', 'Something went wrong on our side. Please try again.') });
    renderOrder(5);
    await placeKrasOrder(user);
    expect(await screen.findByText('Request failed with status code 500')).toBeTruthy();
    expect(screen.getByText('Error submitting form')).toBeTruthy();
  });
});
