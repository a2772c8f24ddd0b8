import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PlateView, PlateWellView } from '@platform/domain';
import { mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { PcrResultingPage } from './PcrResultingPage';

const PATH = '/lab_toolbox/pcr_resulting';
const lab1 = { id: 5, name: 'Leo Bench' };
const RAPID = '61000000000003';
const PCR = '61000000000004';

function well(well: string, label: string, extra: Partial<PlateWellView> = {}): PlateWellView {
  return { well, label, kind: 'sample', reextraction: false, sampleId: null, barcode: null, patient: null, test: null, result: null, resultId: null, resultStatus: null, ...extra };
}

/** Plate 3: two controls, a COVID-19 Rapid sample in C1 and a COVID-19 PCR sample in D1; resulted or not. */
function plate(resulted: boolean): PlateView {
  const r = (value: string) => (resulted ? { result: value, resultStatus: 'In Review' } : {});
  return {
    id: 3, name: 'Run 12', status: resulted ? 'Resulted' : 'Registered', createdBy: lab1, createdAt: '2026-11-20T09:00:00Z',
    resultedBy: resulted ? lab1 : null, resultedAt: resulted ? '2026-11-20T12:00:00Z' : null, sampleCount: 2,
    controls: resulted ? { passed: true, problems: [] } : null,
    wells: [
      well('A1', 'POS PCR CTRL', { kind: 'positive', ...r('DETECTED') }),
      well('B1', 'NEG PCR CTRL', { kind: 'negative', ...r('NOT DETECTED') }),
      well('C1', RAPID, { sampleId: 13, barcode: RAPID, patient: 'Rosa N.', test: 'COVID-19 Rapid', ...r('DETECTED'), resultId: resulted ? 90 : null }),
      well('D1', PCR, { sampleId: 14, barcode: PCR, patient: 'Pat S.', test: 'COVID-19 PCR', ...r('NOT DETECTED'), resultId: resulted ? 91 : null }),
    ],
  };
}

function api(resulted: boolean) {
  const page = { body: [], headers: { 'x-total-count': '0' } };
  mockApi({
    'GET /lab-toolbox/pcr/plates': page,
    'GET /lab-toolbox/pcr/plates/3': { body: plate(resulted) },
  });
}

/** The text of the Test column in the row of a well. */
function testOf(table: HTMLElement, wellName: string): string {
  const row = within(table).getByRole('cell', { name: wellName }).closest('tr')!;
  const header = within(table).getAllByRole('columnheader').map((h) => h.textContent);
  return row.querySelectorAll('td')[header.indexOf('Test')].textContent!;
}

describe('PcrResultingPage: which COVID test each well holds', () => {
  it('while results are entered: the table names the test of the Rapid well and of the PCR well, and none for a control', async () => {
    api(false);
    renderPage(<PcrResultingPage />, { path: PATH, route: `${PATH}?plate=3` });
    const table = await screen.findByRole('table', { name: 'Results of the run' });
    expect(testOf(table, 'C1')).toBe('COVID-19 Rapid');
    expect(testOf(table, 'D1')).toBe('COVID-19 PCR');
    expect(testOf(table, 'A1')).toBe('—');
  });

  it('a resulted plate: each grid well shows its test (short name, full name read out, a legend) and the results table names it', async () => {
    api(true);
    renderPage(<PcrResultingPage />, { path: PATH, route: `${PATH}?plate=3` });
    const grid = await screen.findByRole('table', { name: 'Plate layout' });
    // Read without colour: the cell's own words say which test, by its full name.
    expect(within(grid).getByRole('cell', { name: `${RAPID} COVID-19 Rapid DETECTED` })).toBeTruthy();
    expect(within(grid).getByRole('cell', { name: `${PCR} COVID-19 PCR NOT DETECTED` })).toBeTruthy();
    // On screen, the short names, spelled out in the legend.
    const c1 = grid.querySelector('[data-well="C1"]')!;
    const d1 = grid.querySelector('[data-well="D1"]')!;
    expect(c1.querySelector('[aria-hidden]')!.textContent).toBe('Rapid');
    expect(d1.querySelector('[aria-hidden]')!.textContent).toBe('PCR');
    const legend = screen.getByRole('group', { name: 'Test names on the plate' });
    expect(legend.textContent).toContain('Rapid: COVID-19 Rapid');
    expect(legend.textContent).toContain('PCR: COVID-19 PCR');

    const table = screen.getByRole('table', { name: 'Plate results' });
    expect(testOf(table, 'C1')).toBe('COVID-19 Rapid');
    expect(testOf(table, 'D1')).toBe('COVID-19 PCR');
  });
});
