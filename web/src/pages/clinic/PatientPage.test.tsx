import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AccountRole, AccountType, UserKind, type Me } from '@platform/domain';
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
  return mockApi({ 'GET /auth/me': { body: me }, 'GET /provider-clinic/1/patient/99': answer });
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
});
