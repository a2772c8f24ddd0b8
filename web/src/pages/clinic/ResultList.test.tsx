import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ResultListCategory, SampleStatus, TestOrigin, type ResultListRow } from '@platform/domain';
import { mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { ResultList } from './ResultList';

const row = (sampleId: number, lastName: string): ResultListRow => ({
  sampleId, barcode: `4100000000000${sampleId}`, status: SampleStatus.Completed, statusBeforeStorage: null, rejectionReason: null, sampleType: 'Buccal Swab',
  tests: ['PROSTOX ultra'], orderId: sampleId, orderNumber: `RF_00000000${sampleId}`, origin: TestOrigin.ProviderOrdered, orderedAt: '2026-10-01T10:00:00Z',
  resultedAt: '2026-10-20T10:00:00Z', patient: { id: sampleId, firstName: 'Ada', lastName, dateOfBirth: '1950-01-02' }, physician: null,
  reportAvailable: false, patientOrder: null, awaitingReview: null,
});

const list = () => renderPage(
  <ResultList accountId={1} category={ResultListCategory.Completed} defaultSort={{ sort: 'resultedAt', order: 'desc' }} dateColumn={{ field: 'resultedAt', label: 'Resulted' }} emptyText="No completed tests yet." />,
);

describe('ResultList: search', () => {
  it('searches the list on the server (a POST: the name stays out of the URL) and says how many match, or that nothing does', async () => {
    const user = userEvent.setup();
    const sent = mockApi({
      'GET /provider-clinic/1/physicians': { body: [] },
      'GET /provider-clinic/1/tests': { body: [row(1, 'Quill'), row(2, 'Moss')], headers: { 'x-total-count': '2' } },
      'POST /provider-clinic/1/tests/search': (body) => ({
        body: (body as { q: string }).q === 'Quill' ? { rows: [row(1, 'Quill')], total: 1 } : { rows: [], total: 0 },
      }),
    });
    list();
    expect(await screen.findByText('Moss, Ada')).toBeTruthy();
    const search = screen.getByRole('search', { name: 'Search this list' });
    await user.type(within(search).getByLabelText('Search'), 'Quill');
    await user.click(within(search).getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('1 test matches “Quill”.')).toBeTruthy();
    expect(screen.queryByText('Moss, Ada')).toBeNull();
    const posted = sent.filter((r) => r.method === 'POST');
    expect(posted.map((r) => r.body)).toEqual([{ category: 'COMPLETED', q: 'Quill', page: 1, pageSize: 10, sort: 'resultedAt', order: 'desc' }]);
    expect(sent.every((r) => !r.path.includes('Quill'))).toBe(true);

    await user.clear(within(search).getByLabelText('Search'));
    await user.type(within(search).getByLabelText('Search'), '41999');
    await user.click(within(search).getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Nothing in this list matches “41999”.')).toBeTruthy();

    await user.click(within(search).getByRole('button', { name: 'Clear' }));
    expect(await screen.findByText('Moss, Ada')).toBeTruthy();
  });

  it('says why a search is refused before sending it', async () => {
    const user = userEvent.setup();
    const sent = mockApi({
      'GET /provider-clinic/1/physicians': { body: [] },
      'GET /provider-clinic/1/tests': { body: [row(1, 'Quill')], headers: { 'x-total-count': '1' } },
    });
    list();
    await screen.findByText('Quill, Ada');
    const search = screen.getByRole('search', { name: 'Search this list' });
    await user.type(within(search).getByLabelText('Search'), 'Q');
    await user.click(within(search).getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Type at least 2 characters')).toBeTruthy();
    await user.type(within(search).getByLabelText('Search'), '<b>');
    await user.click(within(search).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(screen.getByText("Use letters, digits, spaces and . , ' - _ @ / only")).toBeTruthy());
    expect(sent.some((r) => r.method === 'POST')).toBe(false);
  });
});
