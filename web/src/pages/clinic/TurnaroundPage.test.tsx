import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AccountRole, AccountType, ClinicMeasure, RejectionReason, UserKind, type ClinicTurnaroundView, type Me } from '@platform/domain';
import { mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { ClinicTurnaroundPage } from './TurnaroundPage';

const riverside = {
  id: 1, name: 'Riverside Oncology', type: AccountType.General, role: AccountRole.Physician as AccountRole,
  eapPartner: false, international: false, clinicAccess: true, researchAccess: false,
};
const me: Me = {
  user: { id: 7, kind: UserKind.Provider, email: 'physician@demo.test', firstName: 'Paula', lastName: 'Grant' },
  accounts: [riverside],
  currentAccount: riverside,
};
const view: ClinicTurnaroundView = {
  from: '2019-03-04', to: '2019-03-17', timeZone: 'UTC',
  turnaround: [
    { testName: 'PROSTOX ultra', measure: ClinicMeasure.ShippedToReceived, week: null, samples: 1, medianHours: 36, p90Hours: 36 },
    { testName: 'PROSTOX ultra', measure: ClinicMeasure.ReceivedToResulted, week: null, samples: 7, medianHours: 48, p90Hours: 81.6 },
  ],
  overdue: [{
    sampleId: 9, barcode: '419900000000009', patientId: 44, testNames: ['PROSTOX ultra'], status: 'In Testing',
    since: '2019-03-15T06:00:00.000Z', receivedAt: '2019-03-15T00:00:00.000Z', targetHours: 48, hoursSinceReceipt: 72,
  }],
  rejections: [{ reason: RejectionReason.QuantityNotSufficient, samples: 2 }],
};
const page = () => renderPage(<ClinicTurnaroundPage />, { path: '/provider-clinic/:accountId/turnaround', route: '/provider-clinic/1/turnaround' });

describe('Clinic TurnaroundPage', () => {
  it('shows the account’s figures, each overdue sample with where it is and since when, and its rejections', async () => {
    const sent = mockApi({ 'GET /auth/me': { body: me }, 'GET /provider-clinic/1/turnaround': { body: view } });
    page();
    const table = await screen.findByRole('table', { name: 'Turnaround by test' });
    expect(within(within(table).getByRole('row', { name: /Shipped → received/ })).getAllByRole('cell').map((c) => c.textContent)).toEqual(['PROSTOX ultra', 'Shipped → received', '1', '36 h', '36 h']);
    const overdue = screen.getByRole('table', { name: 'Overdue samples' });
    const row = within(overdue).getByRole('row', { name: /419900000000009/ });
    expect(within(row).getByText('In Testing')).toBeTruthy();
    expect(within(row).getByText('3 days / 2 days')).toBeTruthy();
    expect(within(row).getByRole('link', { name: '419900000000009' }).getAttribute('href')).toBe('/provider-clinic/1/patient/44');
    expect(within(screen.getByRole('table', { name: 'Rejections by reason' })).getByText('2')).toBeTruthy();
    expect(screen.getAllByRole('link', { name: /Download CSV/ }).map((a) => a.getAttribute('href'))).toEqual(
      ['turnaround', 'overdue', 'rejections'].map((t) => `/api/provider-clinic/1/turnaround/export.csv?table=${t}`));
    // Only this account's figures are asked for.
    expect(sent.filter((r) => r.path.includes('turnaround')).map((r) => r.path)).toEqual(['/provider-clinic/1/turnaround']);
  });

  it('says so when no sample is late', async () => {
    mockApi({ 'GET /auth/me': { body: me }, 'GET /provider-clinic/1/turnaround': { body: { ...view, overdue: [] } } });
    page();
    expect(await screen.findByText('No sample is past its target.')).toBeTruthy();
  });
});
