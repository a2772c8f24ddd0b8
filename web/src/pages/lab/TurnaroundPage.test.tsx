import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { LabMeasure, RejectionReason, type LabTurnaroundView } from '@platform/domain';
import { apiRefusal, mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { TurnaroundPage } from './TurnaroundPage';

const view: LabTurnaroundView = {
  from: '2019-03-04', to: '2019-03-17', timeZone: 'UTC',
  turnaround: [
    { testName: 'PROSTOX ultra', measure: LabMeasure.ReceiptToResult, week: null, samples: 7, medianHours: 48, p90Hours: 81.6 },
    { testName: 'PROSTOX ultra', measure: LabMeasure.ReceiptToResult, week: '2019-03-04', samples: 3, medianHours: 48, p90Hours: 67.2 },
    { testName: 'PROSTOX ultra', measure: LabMeasure.ReceiptToRelease, week: null, samples: 2, medianHours: 66, p90Hours: 80.4 },
  ],
  overdue: [{ testName: 'PROSTOX ultra', targetHours: 48, open: 3, openPastTarget: 2, resulted: 7, resultedPastTarget: 3 }],
  throughput: [{ day: '2019-03-04', received: 2, resulted: 1, rejected: 0 }, { day: '2019-03-05', received: 2, resulted: 1, rejected: 1 }],
  rejections: [{ reason: RejectionReason.QuantityNotSufficient, samples: 3 }, { reason: RejectionReason.IdentificationMismatch, samples: 0 }],
};
const page = () => renderPage(<TurnaroundPage />, { path: '/lab_toolbox/turnaround', route: '/lab_toolbox/turnaround' });

describe('Lab TurnaroundPage', () => {
  it('shows medians and 90th percentiles per test, the target and samples past it, throughput and rejections, each with its CSV link', async () => {
    mockApi({ 'GET /lab-toolbox/turnaround': { body: view } });
    page();
    const table = await screen.findByRole('table', { name: 'Turnaround by test' });
    const result = within(table).getByRole('row', { name: /Receipt → result/ });
    expect(within(result).getAllByRole('cell').map((c) => c.textContent)).toEqual(['PROSTOX ultra', 'Receipt → result', '7', '2 days', '3.4 days', '2 days']);
    const release = within(table).getByRole('row', { name: /Receipt → release/ });
    expect(within(release).getAllByRole('cell').map((c) => c.textContent).slice(2, 5)).toEqual(['2', '2.8 days', '3.4 days']);
    const past = screen.getByRole('table', { name: 'Samples past target' });
    expect(within(past).getAllByRole('cell').map((c) => c.textContent)).toEqual(['PROSTOX ultra', '2 days', '3', '2', '7', '3']);
    expect(screen.getByText('In this range: 4 received, 2 resulted, 1 rejected.')).toBeTruthy();
    const rejections = screen.getByRole('table', { name: 'Rejections by reason' });
    expect(within(rejections).getByRole('row', { name: /quantity not sufficient/ }).textContent).toContain('3');
    const links = screen.getAllByRole('link', { name: /Download CSV/ }).map((a) => a.getAttribute('href'));
    expect(links).toEqual(['turnaround', 'overdue', 'throughput', 'rejections'].map((t) => `/api/lab-toolbox/turnaround/export.csv?table=${t}`));
  });

  it('asks the range chosen, and its CSV links follow it', async () => {
    const user = userEvent.setup({ delay: null });
    const sent = mockApi({ 'GET /lab-toolbox/turnaround': { body: view }, 'GET /lab-toolbox/turnaround?from=2019-03-04&to=2019-03-17': { body: view } });
    page();
    await screen.findByRole('table', { name: 'Turnaround by test' });
    await user.type(screen.getByLabelText('From'), '2019-03-04');
    await user.type(screen.getByLabelText('To'), '2019-03-17');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(sent.map((r) => r.path)).toContain('/lab-toolbox/turnaround?from=2019-03-04&to=2019-03-17'));
    await waitFor(() => expect(screen.getAllByRole('link', { name: /Download CSV/ })[0].getAttribute('href')).toBe('/api/lab-toolbox/turnaround/export.csv?table=turnaround&from=2019-03-04&to=2019-03-17'));
  });

  it('says when turnaround could not be loaded', async () => {
    mockApi({ 'GET /lab-toolbox/turnaround': apiRefusal(500, 'internal', 'Something went wrong') });
    page();
    expect(await screen.findByText('Turnaround could not be loaded.')).toBeTruthy();
  });
});
