import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ExtractionDryRunResult, ExtractionView } from '@platform/domain';
import { apiRefusal, mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { findToast, ToastHost } from '../../test/toasts';
import { FlaggedExtractionsPanel } from './FlaggedExtractions';
import { ImportToolPage } from './ImportToolPage';

const REEX_ONCE = '41000000000002.reex is already a re-extraction and a sample is re-extracted once: reject the sample (quantity not sufficient) instead';

function extraction(id: number, label: string, overrides: Partial<ExtractionView> = {}): ExtractionView {
  return {
    id, label, barcode: label.replace(/\.reex$/, ''), sampleId: id * 10, sampleStatus: 'In Testing',
    concentration: 4.2, a260280: 1.55, volume: 15, plate: 'EX-12', well: `C${id}`,
    flags: ['Concentration 4.2 ng/µL is below 10 ng/µL', 'Volume 15 µL is below 20 µL'],
    importJobId: 9, fileRow: id + 1, result: { id: 100 + id, version: 1, status: 'In Review' },
    enteredBy: { id: 1, name: 'Leo Bench' }, enteredAt: '2026-11-23T10:00:00.000Z',
    outcome: null, reextractionId: null, decidedBy: null, decidedAt: null,
    refusals: { 're-extraction': null, 'reject-sample': null },
    ...overrides,
  };
}

const first = extraction(1, '41000000000001');
const reex = extraction(2, '41000000000002.reex', { refusals: { 're-extraction': REEX_ONCE, 'reject-sample': null } });
const decided = extraction(3, '41000000000003', { outcome: 're-extraction', reextractionId: '41000000000003.reex', decidedBy: { id: 2, name: 'Lena Pipette' } });
const LIST = 'GET /lab-toolbox/dna-extractions?page=1&pageSize=50&jobId=9&flagged=true';

describe('FlaggedExtractionsPanel', () => {
  it('sends a flagged sample to re-extraction and rejects another, each after a confirmation; a refused decision is disabled with why', async () => {
    const user = userEvent.setup({ delay: null });
    const sent = mockApi({
      [LIST]: { body: [first, reex, decided], headers: { 'x-total-count': '3' } },
      'POST /lab-toolbox/dna-extractions/1/decide': { body: { extraction: { ...first, outcome: 're-extraction', reextractionId: '41000000000001.reex' }, message: '41000000000001 sent to re-extraction: its new extraction goes by 41000000000001.reex; the sample stays In Testing' } },
      'POST /lab-toolbox/dna-extractions/2/decide': { body: { extraction: { ...reex, outcome: 'reject-sample' }, message: 'Sample 41000000000002 rejected: Rejected - quantity not sufficient' } },
    });
    renderPage(<><ToastHost /><FlaggedExtractionsPanel jobId={9} title="Flagged samples" /></>);
    const table = await screen.findByRole('table', { name: 'Flagged DNA extractions' });
    const firstRow = within(table).getByText('41000000000001').closest('tr')!;
    expect(within(firstRow).getByText('Concentration 4.2 ng/µL is below 10 ng/µL')).toBeTruthy();
    expect(within(firstRow).getByText('Volume 15 µL is below 20 µL')).toBeTruthy();

    // Decided already: no buttons, the decision and its .reex id.
    const decidedRow = within(table).getByText('41000000000003').closest('tr')!;
    expect(within(decidedRow).queryByRole('button')).toBeNull();
    expect(within(decidedRow).getByText('41000000000003.reex')).toBeTruthy();

    // A re-extraction cannot be re-extracted: the button is disabled and says why.
    const reexRow = within(table).getByText('41000000000002.reex').closest('tr')!;
    expect((within(reexRow).getByRole('button', { name: 'Re-extract 41000000000002.reex' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(reexRow).getByText(REEX_ONCE)).toBeTruthy();

    // Re-extraction, confirmed.
    await user.click(within(table).getByRole('button', { name: 'Re-extract 41000000000001' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send 41000000000001 to re-extraction' });
    expect(within(dialog).getByText(/its next extraction goes by 41000000000001\.reex/)).toBeTruthy();
    expect(sent.some((r) => r.method === 'POST')).toBe(false); // nothing before the confirmation
    await user.click(within(dialog).getByRole('button', { name: 'Send to re-extraction' }));
    await waitFor(() => expect(sent.find((r) => r.path === '/lab-toolbox/dna-extractions/1/decide')?.body).toEqual({ outcome: 're-extraction' }));
    await findToast('41000000000001 sent to re-extraction: its new extraction goes by 41000000000001.reex; the sample stays In Testing');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // Rejection (quantity not sufficient), confirmed.
    await user.click(within(table).getByRole('button', { name: 'Reject 41000000000002.reex: quantity not sufficient' }));
    const reject = await screen.findByRole('dialog', { name: 'Reject sample 41000000000002' });
    expect(within(reject).getByText(/Rejected - quantity not sufficient/)).toBeTruthy();
    await user.click(within(reject).getByRole('button', { name: 'Reject: quantity not sufficient' }));
    await waitFor(() => expect(sent.find((r) => r.path === '/lab-toolbox/dna-extractions/2/decide')?.body).toEqual({ outcome: 'reject-sample' }));
    await findToast('Sample 41000000000002 rejected: Rejected - quantity not sufficient');
  });

  it("shows the server's refusal in the dialog and keeps it open", async () => {
    const user = userEvent.setup({ delay: null });
    mockApi({
      [LIST]: { body: [first], headers: { 'x-total-count': '1' } },
      'POST /lab-toolbox/dna-extractions/1/decide': apiRefusal(409, 'conflict', 'Sample 41000000000001 is In Storage: a flagged extraction is decided while its sample is In Testing'),
    });
    renderPage(<FlaggedExtractionsPanel jobId={9} title="Flagged samples" />);
    await user.click(await screen.findByRole('button', { name: 'Reject 41000000000001: quantity not sufficient' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject sample 41000000000001' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject: quantity not sufficient' }));
    expect(await within(dialog).findByText('Sample 41000000000001 is In Storage: a flagged extraction is decided while its sample is In Testing')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Reject sample 41000000000001' })).toBeTruthy();
  });

  it('closing the decision dialog gives the focus back to the button that opened it; once decided (its buttons gone) to the page heading', async () => {
    const user = userEvent.setup({ delay: null });
    let decidedNow = false;
    mockApi({
      [LIST]: () => ({ body: [decidedNow ? { ...first, outcome: 'reject-sample', decidedBy: { id: 2, name: 'Lena Pipette' } } : first], headers: { 'x-total-count': '1' } }),
      'POST /lab-toolbox/dna-extractions/1/decide': () => {
        decidedNow = true;
        return { body: { extraction: { ...first, outcome: 'reject-sample' }, message: 'Sample 41000000000001 rejected: Rejected - quantity not sufficient' } };
      },
    });
    renderPage(<><h1 tabIndex={-1}>Review and approve</h1><FlaggedExtractionsPanel jobId={9} title="Flagged samples" /></>);
    const reject = await screen.findByRole('button', { name: 'Reject 41000000000001: quantity not sufficient' });
    reject.focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('dialog', { name: 'Reject sample 41000000000001' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(reject));

    const reextract = screen.getByRole('button', { name: 'Re-extract 41000000000001' });
    await user.click(reextract);
    await user.click(within(await screen.findByRole('dialog', { name: 'Send 41000000000001 to re-extraction' })).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(document.activeElement).toBe(reextract));

    await user.click(reject);
    await user.click(within(await screen.findByRole('dialog', { name: 'Reject sample 41000000000001' })).getByRole('button', { name: 'Reject: quantity not sufficient' }));
    await screen.findByText('Sample 41000000000001 rejected: Rejected - quantity not sufficient');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Reject 41000000000001: quantity not sufficient' })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Review and approve' })));
  });
});

describe('ImportToolPage for DNA extraction runs', () => {
  it('lists the rows the check flagged with why, and after the commit the flagged samples with their decisions', async () => {
    const dry: ExtractionDryRunResult = {
      mode: 'dry-run', kind: 'dna-extraction', fileId: 4, fileName: 'run-12.csv', format: 'csv', rowCount: 2,
      rows: [
        { row: 2, barcode: '41000000000009', value: '52.4 ng/µL; A260/280 1.86; 40 µL; plate EX-12 A1', test: 'DNA Extraction', sampleStatus: 'In Queue', ok: true },
        { row: 3, barcode: '41000000000001', value: '4.2 ng/µL; A260/280 1.55; 15 µL; plate EX-12 C1', test: 'DNA Extraction', sampleStatus: 'In Testing', ok: true },
      ],
      errorCount: 0, errors: [],
      acceptance: { minConcentration: 10, minA260280: 1.7, maxA260280: 2.1, minVolume: 20 },
      flaggedCount: 1,
      flagged: [{ row: 3, sampleId: '41000000000001', sampleStatus: 'In Testing', concentration: 4.2, a260280: 1.55, volume: 15, plate: 'EX-12', well: 'C1', reasons: ['Concentration 4.2 ng/µL is below 10 ng/µL'] }],
    };
    const job = (id: number, mode: string, result: unknown) => ({
      body: { id, name: 'lab-import', status: 'Completed', progress: 100, error: null, result, kind: 'dna-extraction', mode, file: { id: 4, name: 'run-12.csv', sizeBytes: 90, uploadedByUserId: 1 }, createdBy: { id: 1, name: 'Leo Bench' }, createdAt: '2026-11-23T10:00:00.000Z', finishedAt: '2026-11-23T10:00:01.000Z' },
    });
    mockApi({
      'GET /lab-toolbox/jobs/5': job(5, 'dry-run', dry),
      'GET /lab-toolbox/jobs/9': job(9, 'commit', { mode: 'commit', kind: 'dna-extraction', fileId: 4, fileName: 'run-12.csv', rowCount: 2, resultsWritten: 2, samplesMovedToTesting: 1, flaggedCount: 1 }),
      [LIST]: { body: [first], headers: { 'x-total-count': '1' } },
    });
    renderPage(<ImportToolPage kind="dna-extraction" title="DNA extraction import" />, { path: '/lab_toolbox/dna_extraction_import_tool', route: '/lab_toolbox/dna_extraction_import_tool?job=5&commit=9' });
    const checked = await screen.findByRole('table', { name: 'Flagged rows of the check' });
    expect(within(checked).getByText('Concentration 4.2 ng/µL is below 10 ng/µL')).toBeTruthy();
    expect(screen.getByText(/Acceptance range: concentration ≥ 10 ng\/µL, A260\/280 1\.7–2\.1, volume ≥ 20 µL/)).toBeTruthy();
    const flagged = await screen.findByRole('table', { name: 'Flagged DNA extractions' });
    expect(within(flagged).getByRole('button', { name: 'Re-extract 41000000000001' })).toBeTruthy();
    expect(screen.getByText(/2 DNA extractions written and waiting for review/)).toBeTruthy();
  });
});
