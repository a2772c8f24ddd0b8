import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SampleStatus, type LabWorklistRow, type WorklistTestCount } from '@platform/domain';
import { apiRefusal, mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { WorklistPage } from './WorklistPage';

const tests: WorklistTestCount[] = [
  { testName: 'KRAS', targetHours: null, open: 1, openPastTarget: 0 },
  { testName: 'PREVIOTOX', targetHours: 48, open: 2, openPastTarget: 1 },
];
const row = (over: Partial<LabWorklistRow>): LabWorklistRow => ({
  sampleId: 1, barcode: '41000000000001', testName: 'PREVIOTOX', status: SampleStatus.InQueue, workStatus: SampleStatus.InQueue, sampleType: 'Buccal Swab',
  accountName: 'North Clinic', patient: 'Ada Q.', receivedAt: '2026-11-20T10:00:00.000Z', hoursSinceReceipt: 72, targetHours: 48, pastTarget: true, ...over,
});
const rows = [
  row({}),
  row({ sampleId: 2, barcode: '41000000000002', status: 'In Storage (In Testing when taken out)', workStatus: SampleStatus.InTesting, hoursSinceReceipt: 20, pastTarget: false, patient: 'Bo R.' }),
];
const page = (route = '/lab_toolbox/worklist') => renderPage(<WorklistPage />, { path: '/lab_toolbox/worklist', route });

describe('Lab WorklistPage', () => {
  it('lists the waiting tests in the order the API gives (oldest receipt first), marking in words the one past its target', async () => {
    mockApi({
      'GET /lab-toolbox/worklist/tests': { body: tests },
      'GET /lab-toolbox/worklist?page=1&pageSize=10': { body: rows, headers: { 'x-total-count': '2' } },
    });
    page();
    const table = await screen.findByRole('table', { name: 'Worklist' });
    const body = within(table).getAllByRole('row').slice(1);
    expect(body.map((r) => within(r).getAllByRole('cell')[0].textContent)).toEqual(['41000000000001', '41000000000002']);
    expect(within(body[0]).getByText('Past target')).toBeTruthy();
    expect(within(body[0]).getByText('3 days')).toBeTruthy();
    expect(within(body[1]).queryByText('Past target')).toBeNull();
    expect(within(body[1]).getByText('In Storage (In Testing when taken out)')).toBeTruthy();
    const counts = screen.getByRole('table', { name: 'Samples waiting by test' });
    expect(within(within(counts).getByRole('row', { name: /PREVIOTOX/ })).getAllByRole('cell').map((c) => c.textContent).slice(0, 4)).toEqual(['PREVIOTOX', '2 days', '2', '1']);
    expect(within(within(counts).getByRole('row', { name: /KRAS/ })).getAllByRole('cell')[1].textContent).toBe('None set');
    expect(screen.getByText('1–2 of 2 tests waiting')).toBeTruthy();
  });

  it('shows one test or one status when chosen (kept in the URL), and says when nothing waits there', async () => {
    const user = userEvent.setup();
    const sent = mockApi({
      'GET /lab-toolbox/worklist/tests': { body: tests },
      'GET /lab-toolbox/worklist?page=1&pageSize=10': { body: rows, headers: { 'x-total-count': '2' } },
      'GET /lab-toolbox/worklist?page=1&pageSize=10&test=KRAS': { body: [], headers: { 'x-total-count': '0' } },
      'GET /lab-toolbox/worklist?page=1&pageSize=10&test=KRAS&status=In+Testing': { body: [], headers: { 'x-total-count': '0' } },
    });
    page();
    await screen.findByRole('table', { name: 'Worklist' });
    await user.click(screen.getByRole('button', { name: 'Show only KRAS' }));
    expect(await screen.findByText('No sample waits here.')).toBeTruthy();
    await user.click(screen.getByRole('radio', { name: 'In Testing' }));
    await waitFor(() => expect(sent.map((r) => r.path)).toContain('/lab-toolbox/worklist?page=1&pageSize=10&test=KRAS&status=In+Testing'));
    expect(screen.getByRole('button', { name: 'Show every test' })).toBeTruthy();
  });

  it('says when the worklist could not be loaded', async () => {
    mockApi({
      'GET /lab-toolbox/worklist/tests': { body: [] },
      'GET /lab-toolbox/worklist?page=1&pageSize=10': apiRefusal(500, 'internal', 'Something went wrong'),
    });
    page();
    expect(await screen.findByText('The worklist could not be loaded')).toBeTruthy();
  });
});
