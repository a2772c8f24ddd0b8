import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AccountRole, AccountType, correctableFields, ORDER_RECEIVED_MESSAGE, SampleStatus, TestOrigin, UserKind, type Me, type PatientDetail } from '@platform/domain';
import { ErrorModalHost } from '../../components/ErrorModalHost';
import { apiRefusal, mockApi, type MockHandler } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { PatientPage } from './PatientPage';

const riverside = {
  id: 1, name: 'Riverside Oncology', type: AccountType.General, role: AccountRole.SupportStaff,
  eapPartner: false, international: false, clinicAccess: true, researchAccess: false,
};
const me: Me = { user: { id: 8, kind: UserKind.Provider, email: 'staff@demo.test', firstName: 'Sam', lastName: 'Staff' }, accounts: [riverside], currentAccount: riverside };

const detail: PatientDetail = {
  patient: {
    id: 99, firstName: 'Imogen', lastName: 'Brightwatr', dateOfBirth: '1959-10-03', sex: 'F', email: null, phone: '(555) 010-2030',
    addressLine1: null, addressLine2: null, city: null, state: null, postalCode: null, country: null, medicalRecordNumber: 'MRN-7', createdAt: '2026-11-20T10:00:00.000Z',
  },
  samples: [{
    id: 5, barcode: '41000000000555', status: SampleStatus.OrderPlaced, statusBeforeStorage: null, sampleType: 'Buccal Swab', rejectionReason: null, orderNumber: 'RF_000000555',
    origin: TestOrigin.ProviderOrdered, orderedAt: '2026-11-20T10:00:00.000Z', physician: { id: 3, name: 'Paula Grant', npi: '1336666663' },
    tests: [{ id: 1, name: 'KRAS', status: 'Ordered' }], timeline: [], documents: { requisitionForm: true, labReport: false }, requisitionAwaitsSignOff: false, shipment: null,
    diagnoses: [{ code: 'C61', display: 'C61', description: 'Malignant neoplasm of prostate' }], cancellable: true, cancelledAt: null, cancellationReason: null,
  }],
  corrections: [{
    id: 1, at: '2026-11-21T09:00:00.000Z', by: 'Sam Staff', reason: 'Typo at registration',
    changes: [{ field: 'firstName', label: 'First name', before: 'Imogene', after: 'Imogen' }],
  }],
};

function patientApi(extra: Record<string, MockHandler> = {}) {
  return mockApi({
    'GET /auth/me': { body: me }, 'GET /provider-clinic/1/patient/99': { body: detail },
    'GET /provider-clinic/1/patient/99/follow-ups': { body: [] },
    // As the API reads them from the new-patient schema.
    'GET /provider-clinic/1/patient-fields': { body: correctableFields() }, 'GET /provider-clinic/1/patient/99/cancer-diagnoses': { body: [] },
    ...extra,
  });
}

const renderPatient = () =>
  renderPage(<><PatientPage /><ErrorModalHost /></>, { path: '/provider-clinic/:accountId/patient/:patientId', route: '/provider-clinic/1/patient/99' });

describe('PatientPage: corrections, diagnosis codes, cancelling', () => {
  it('shows each sample\'s diagnosis codes and the corrections history with the old values', async () => {
    patientApi();
    renderPatient();
    const card = await screen.findByRole('article', { name: 'Sample 41000000000555' });
    const codes = within(card).getByRole('group', { name: 'Diagnosis codes of sample 41000000000555' });
    expect(within(codes).getByText('C61')).toBeTruthy();
    expect(within(codes).getByText('Malignant neoplasm of prostate')).toBeTruthy();
    const history = screen.getByRole('region', { name: 'Corrections history' });
    expect(within(history).getByText(/by Sam Staff: Typo at registration/)).toBeTruthy();
    expect(within(history).getByText('Imogene')).toBeTruthy();
  });

  it('corrects the details from a form drawn from the patient schema: every field filled in as it is, the reason asked for', async () => {
    const user = userEvent.setup();
    const sent = patientApi({
      'POST /provider-clinic/1/patient/99/correct': {
        body: { id: 2, at: '2026-11-28T09:00:00.000Z', by: 'Sam Staff', reason: 'Spelling', changes: [{ field: 'lastName', label: 'Last name', before: 'Brightwatr', after: 'Brightwater' }] },
      },
    });
    renderPatient();
    await user.click(await screen.findByRole('button', { name: 'Correct details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Correct the patient’s details' });
    // The schema's fields, with the patient's values.
    for (const label of ['First name', 'Last name', 'Date of birth', 'Email', 'Phone', 'Medical record number']) {
      expect(within(dialog).getByLabelText(new RegExp(`^${label}`)), label).toBeTruthy();
    }
    expect((within(dialog).getByLabelText(/^Medical record number/) as HTMLInputElement).value).toBe('MRN-7');
    const lastName = within(dialog).getByLabelText(/^Last name/) as HTMLInputElement;
    await user.clear(lastName);
    await user.click(lastName);
    await user.paste('Brightwater');
    await user.click(within(dialog).getByRole('button', { name: 'Save the correction' }));
    expect(await within(dialog).findByText('Say why the details are corrected')).toBeTruthy();
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);
    await user.click(within(dialog).getByLabelText(/^Reason for the correction/));
    await user.paste('Spelling');
    await user.click(within(dialog).getByRole('button', { name: 'Save the correction' }));
    await waitFor(() => expect(sent.some((r) => r.method === 'POST')).toBe(true));
    expect(sent.find((r) => r.method === 'POST')!.body).toMatchObject({
      firstName: 'Imogen', lastName: 'Brightwater', dateOfBirth: '1959-10-03', sex: 'F', phone: '(555) 010-2030', medicalRecordNumber: 'MRN-7', email: '', reason: 'Spelling',
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Correct the patient’s details' })).toBeNull());
  });

  it('cancels an order with a reason, and says why when the lab has received the sample meanwhile', async () => {
    const user = userEvent.setup();
    const sent = patientApi({ 'POST /provider-clinic/1/samples/5/cancel-order': apiRefusal(409, 'conflict', ORDER_RECEIVED_MESSAGE) });
    renderPatient();
    const card = await screen.findByRole('article', { name: 'Sample 41000000000555' });
    await user.click(within(card).getByRole('button', { name: 'Cancel order RF_000000555' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel order RF_000000555?' });
    await user.type(within(dialog).getByLabelText(/^Reason/), 'Ordered twice');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the order' }));
    expect(await within(dialog).findByText(ORDER_RECEIVED_MESSAGE)).toBeTruthy();
    expect(sent.find((r) => r.method === 'POST')!.body).toEqual({ reason: 'Ordered twice' });
  });
});
