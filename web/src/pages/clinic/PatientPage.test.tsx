import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AccountRole, AccountType, REQUISITION_AWAITS_SIGN_OFF_MESSAGE, SampleStatus, TestOrigin, UserKind, type Me, type PatientDetail } from '@platform/domain';
import { ErrorModalHost } from '../../components/ErrorModalHost';
import { closeErrorModal } from '../../shell/error-modal-store';
import { apiRefusal, mockApi, type MockHandler } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { PatientPage } from './PatientPage';

const riverside = {
  id: 1, name: 'Riverside Oncology', type: AccountType.General, role: AccountRole.Physician,
  eapPartner: false, international: false, clinicAccess: true, researchAccess: false,
};
const me: Me = {
  user: { id: 7, kind: UserKind.Provider, email: 'physician@demo.test', firstName: 'Paula', lastName: 'Grant' },
  accounts: [riverside],
  currentAccount: riverside,
};

function patientApi(answer: MockHandler) {
  return mockApi({
    'GET /auth/me': { body: me }, 'GET /provider-clinic/1/patient/99': answer,
    'GET /provider-clinic/1/patient/99/follow-ups': { body: [] }, 'GET /provider-clinic/1/patient/99/cancer-diagnoses': { body: [] },
  });
}

/** A patient who ordered PROSTOX ultra themselves: paid, the kit sample in Order Placed; signed off or not. */
function selfOrdered(signedOff: boolean): PatientDetail {
  return {
    patient: {
      id: 99, firstName: 'Pia', lastName: 'Orderer', dateOfBirth: '1958-06-21', sex: null, email: 'pia@patients.test', phone: '(555) 010-2030',
      addressLine1: '1 Harbor Lane', addressLine2: null, city: 'Bayport', state: 'CA', postalCode: '94000', country: null, medicalRecordNumber: null,
      createdAt: '2026-11-20T10:00:00.000Z',
    },
    samples: [{
      id: 5, barcode: '41000000000123', status: SampleStatus.OrderPlaced, statusBeforeStorage: null, sampleType: 'Buccal Swab', rejectionReason: null, orderNumber: 'RPD0000000123',
      origin: TestOrigin.PatientOrdered, orderedAt: '2026-11-20T10:00:00.000Z',
      physician: signedOff ? { id: 3, name: 'Paula Grant', npi: '1336666663' } : null,
      tests: [{ id: 1, name: 'PROSTOX ultra', status: 'Ordered' }], timeline: [],
      documents: { requisitionForm: false, labReport: false }, requisitionAwaitsSignOff: !signedOff, shipment: null, diagnoses: [], cancellable: false, cancelledAt: null, cancellationReason: null,
    }],
    corrections: [],
  };
}

const renderPatient = () =>
  renderPage(<><PatientPage /><ErrorModalHost /></>, { path: '/provider-clinic/:accountId/patient/:patientId', route: '/provider-clinic/1/patient/99' });

/** The shell re-reads /auth/me after a 404 under an account, then decides on the modal: wait until it has. */
async function shellDecided(sent: { path: string }[]) {
  await waitFor(() => expect(sent.filter((r) => r.path === '/auth/me').length).toBeGreaterThanOrEqual(2));
  await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('PatientPage', () => {
  afterEach(() => closeErrorModal());

  it('another account\'s patient (404) shows the page\'s own not-found and no error modal', async () => {
    const sent = patientApi(apiRefusal(404, 'not_found', 'Patient not found'));
    renderPatient();
    expect(await screen.findByText('There is no such patient in this account.')).toBeTruthy();
    await shellDecided(sent);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByText('Error retrieving patient details')).toBeNull();
  });

  it('any other failure still opens the error modal', async () => {
    patientApi(apiRefusal(500, 'internal', 'Something went wrong on our side. Please try again.'));
    renderPatient();
    expect(await screen.findByRole('dialog', { name: 'Error retrieving patient details' })).toBeTruthy();
  });

  it('a patient\'s own order before sign-off: the requisition download is disabled and says it comes with the physician\'s sign-off', async () => {
    const sent = patientApi({ body: selfOrdered(false) });
    renderPatient();
    const card = await screen.findByRole('article', { name: 'Sample 41000000000123' });
    const button = within(card).getByRole('button', { name: 'Download requisition form' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    const reason = within(card).getByText(REQUISITION_AWAITS_SIGN_OFF_MESSAGE);
    expect(button.getAttribute('aria-describedby')).toBe(reason.id);
    expect(sent.some((r) => r.path.includes('pdf_order'))).toBe(false);
  });

  it('once signed off the same sample offers the download (the form is being rendered)', async () => {
    patientApi({ body: selfOrdered(true) });
    renderPatient();
    const card = await screen.findByRole('article', { name: 'Sample 41000000000123' });
    const button = within(card).getByRole('button', { name: 'Download requisition form' }) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    expect(within(card).queryByText(REQUISITION_AWAITS_SIGN_OFF_MESSAGE)).toBeNull();
  });
});
