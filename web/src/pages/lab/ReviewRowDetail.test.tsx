import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ReviewListRow } from '@platform/domain';
import { mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { ReviewPage } from './ReviewPage';

const me = { user: { id: 2, kind: 'lab', email: 'lab2@demo.test', firstName: 'Lena', lastName: 'Pipette' }, accounts: [], currentAccount: null };
const LOW = 'Concentration 6.5 ng/µL is below 10 ng/µL';
const HELD = 'The PROSTOX ultra result of sample 61000000000001 cannot be released: its DNA extraction 61000000000001 is outside the acceptance range (Concentration 6.5 ng/µL is below 10 ng/µL) and waits for a decision';

function row(id: number, extra: Partial<ReviewListRow> = {}, context: Partial<ReviewListRow['context']> = {}): ReviewListRow {
  return {
    id, version: 1, value: 'High Risk', interpretation: null, status: 'In Review', test: 'PROSTOX ultra', approvalGroup: 'cancer', sampleId: id * 10,
    barcode: `6100000000000${id}`, sampleStatus: 'In Testing', patient: 'Testy L.', account: 'Riverside Oncology',
    enteredBy: { id: 1, name: 'Leo Bench' }, enteredAt: '2026-11-21T09:00:00Z', importJobId: 7, importFile: { id: 70, name: 'risk-7.csv' }, plate: null,
    correctionReason: null, releasedValue: null, dna: null, canApprove: true, cannotApprove: null,
    context: {
      extraction: null, controls: [], earlier: [], changedFromLast: null,
      specimen: { sampleType: 'Buccal Swab', condition: 'insufficient', conditionNote: 'Half the swab volume; enough for one run', collectedAt: '2026-11-19T02:00:00Z', receivedAt: '2026-11-20T06:00:00Z', testedAt: '2026-11-20T08:00:00Z', ageAtTestingHours: 30 },
      ...context,
    },
    ...extra,
  };
}

const held = row(1, { canApprove: false, cannotApprove: HELD, dna: { qc: 'flagged', label: '61000000000001', text: 'DNA extraction flagged: 61000000000001' } }, {
  extraction: { label: '61000000000001', concentration: 6.5, a260280: 1.8, volume: 40, plate: 'EX-51', well: 'C1', flags: [LOW], qc: 'flagged', own: false },
  earlier: [
    { resultId: 901, barcode: '61000000000900', value: 'Low-Average Risk', releasedAt: '2025-06-01T10:00:00Z', sameSample: false },
    { resultId: 801, barcode: '61000000000800', value: 'High Risk', releasedAt: '2024-06-01T10:00:00Z', sameSample: false },
  ],
  changedFromLast: true,
});
const fine = row(2, {}, { earlier: [{ resultId: 902, barcode: '61000000000902', value: 'High Risk', releasedAt: '2025-06-01T10:00:00Z', sameSample: false }], changedFromLast: false });
const pcr = row(3, {
  test: 'COVID-19 PCR', approvalGroup: 'covid-pcr', value: 'NOT DETECTED', importJobId: null, importFile: null, canApprove: false,
  cannotApprove: 'Plate Run 31 cannot be released: its controls failed (the negative control NEG PCR CTRL in B1 is DETECTED (expected NOT DETECTED))',
  plate: { id: 31, name: 'Run 31', well: 'C1', controlsPassed: false, controlProblems: ['the negative control NEG PCR CTRL in B1 is DETECTED (expected NOT DETECTED)'] },
}, {
  controls: [
    { well: 'A1', label: 'POS PCR CTRL', kind: 'positive', result: 'DETECTED', expected: 'DETECTED', passed: true },
    { well: 'B1', label: 'NEG PCR CTRL', kind: 'negative', result: 'DETECTED', expected: 'NOT DETECTED', passed: false },
  ],
  specimen: { sampleType: 'Nasal Swab', condition: null, conditionNote: null, collectedAt: null, receivedAt: null, testedAt: '2026-11-20T08:00:00Z', ageAtTestingHours: null },
});

function renderReview(rows: ReviewListRow[]) {
  return mockApi({
    'GET /auth/me': { body: me },
    'GET /lims/contact/technicians': { body: [] },
    'GET /lab-toolbox/pcr/plates': { body: [], headers: { 'x-total-count': '0' } },
    'GET /lab-toolbox/get-review-list': { body: rows, headers: { 'x-total-count': String(rows.length) } },
  });
}

describe('ReviewPage row details', () => {
  it('a held result: its flagged extraction, the earlier result it changed from, the specimen, and why it cannot be approved (no Approve), opened and closed from the keyboard', async () => {
    const user = userEvent.setup({ delay: null });
    renderReview([held, fine]);
    renderPage(<ReviewPage />, { path: '/lab_toolbox/review', route: '/lab_toolbox/review' });
    const table = await screen.findByRole('table', { name: 'Results in review' });
    // On the row itself: the change and that it cannot be approved.
    const heldRow = within(table).getByText(held.barcode).closest('tr')!;
    expect(within(heldRow).getByText('Changed from Low-Average Risk')).toBeTruthy();
    expect(within(heldRow).getByText('Cannot approve')).toBeTruthy();

    const toggle = within(table).getByRole('button', { name: `Details: ${held.barcode} PROSTOX ultra` });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    toggle.focus();
    await user.keyboard('{Enter}');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const detail = await screen.findByTestId('review-detail');
    expect(toggle.getAttribute('aria-controls')).toBe(detail.id);

    const extraction = within(detail).getByTestId('review-extraction');
    expect(extraction.textContent).toContain('DNA extraction 61000000000001: DNA extraction flagged');
    expect(extraction.textContent).toContain('Concentration 6.5 ng/µL · A260/280 1.8 · volume 40 µL');
    expect(extraction.textContent).toContain('Extraction plate EX-51, well C1');
    expect(within(within(detail).getByRole('list', { name: 'Outside the acceptance range' })).getByText(LOW)).toBeTruthy();

    expect(within(detail).getByTestId('review-changed').textContent).toBe('Changed: last released Low-Average Risk, now High Risk');
    const earlier = within(detail).getByRole('list', { name: 'Earlier released results' });
    expect(within(earlier).getAllByRole('listitem').map((li) => li.textContent?.split(' · ')[0])).toEqual(['Low-Average Risk', 'High Risk']);
    expect(within(detail).getByTestId('review-earlier-last').textContent).toBe('Low-Average Risk');

    const specimen = within(detail).getByRole('region', { name: 'Specimen' });
    expect(specimen.textContent).toContain('Type: Buccal Swab');
    expect(specimen.textContent).toContain('Condition: Insufficient (Half the swab volume; enough for one run)');
    expect(specimen.textContent).toContain('Age at testing: 1 day 6 hours');
    expect(within(detail).getByRole('region', { name: 'Run' }).textContent).toContain('Import file: risk-7.csv');

    expect(within(detail).getByTestId('review-cannot-approve').textContent).toBe(`Cannot be approved: ${HELD}`);
    expect(within(detail).queryByRole('button', { name: /^Approve/ })).toBeNull();

    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByTestId('review-detail')).toBeNull());
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('an approvable result is approved from its details: the signing dialog names that one result only', async () => {
    const user = userEvent.setup({ delay: null });
    renderReview([held, fine]);
    renderPage(<ReviewPage />, { path: '/lab_toolbox/review', route: '/lab_toolbox/review' });
    await user.click(await screen.findByRole('button', { name: `Details: ${fine.barcode} PROSTOX ultra` }));
    const detail = await screen.findByTestId('review-detail');
    expect(within(detail).getByText('Same as the last released result.')).toBeTruthy();
    expect(within(detail).queryByTestId('review-changed')).toBeNull();
    await user.click(within(detail).getByRole('button', { name: `Approve ${fine.barcode} PROSTOX ultra` }));
    const signing = await screen.findByRole('dialog', { name: 'Sign to release 1 result' });
    expect(within(signing).getByText(`${fine.barcode} · PROSTOX ultra: High Risk`)).toBeTruthy();
  });

  it("a plate result: the plate's controls, each with what it read and must read, the failed one said; no collection time, no age", async () => {
    const user = userEvent.setup({ delay: null });
    renderReview([pcr]);
    renderPage(<ReviewPage />, { path: '/lab_toolbox/review', route: '/lab_toolbox/review' });
    await user.click(await screen.findByRole('button', { name: `Details: ${pcr.barcode} COVID-19 PCR` }));
    const detail = await screen.findByTestId('review-detail');
    const controls = within(detail).getByTestId('review-controls');
    expect(controls.textContent).toContain('Plate Run 31 controls failed');
    expect(within(controls).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'A1 POS PCR CTRL (positive control): DETECTED (expected DETECTED) — passed',
      'B1 NEG PCR CTRL (negative control): DETECTED (expected NOT DETECTED) — failed',
    ]);
    expect(within(detail).getByRole('region', { name: 'Specimen' }).textContent).toContain('Age at testing: unknown (no collection time)');
    expect(within(detail).getByRole('region', { name: 'Specimen' }).textContent).toContain('Condition: not recorded');
    expect(within(detail).getByTestId('review-cannot-approve').textContent).toContain('its controls failed');
    expect(within(detail).queryByRole('button', { name: /^Approve/ })).toBeNull();
  });
});
