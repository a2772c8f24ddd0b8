import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { nextFreeWell, type StoragePlateView, type StorageWellView } from '@platform/domain';
import { apiRefusal, mockApi, type MockAnswer, type SentRequest } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { StoragePlatesPage } from './StoragePlatesPage';

const PATH = '/lab_toolbox/storage_plate_import_tool';
const lab1 = { id: 5, name: 'Leo Bench' };

function stored(well: string, barcode: string, left: StorageWellView['statusBeforeStorage']): StorageWellView {
  return { well, label: barcode, kind: 'sample', sampleId: Number(barcode.slice(-4)), barcode, status: 'In Storage', statusBeforeStorage: left, placedBy: lab1, placedAt: '2026-11-20T10:00:00Z' };
}

/**
 * A stand-in storage API for plate 7 (P-0007) that keeps its wells: scans fill them (a space
 * around the id is refused as the API refuses it), take-out and discard empty them. Placements
 * wait for `gate` when one is given, so scans typed meanwhile queue up.
 */
function storageApi(initial: StorageWellView[], gate?: Promise<void>) {
  const wells = [...initial];
  const view = (): StoragePlateView => ({
    id: 7, name: 'P-0007', createdBy: lab1, createdAt: '2026-11-20T09:00:00Z', sampleCount: wells.filter((w) => w.sampleId).length,
    controlCount: wells.filter((w) => !w.sampleId).length, freeWells: 96 - wells.length, wells: [...wells], nextFreeWell: nextFreeWell(wells.map((w) => w.well)),
  });
  const sent = mockApi({
    'GET /lab-toolbox/storage/plates': () => ({ body: [view()], headers: { 'x-total-count': '1' } }),
    'GET /lab-toolbox/storage/plates/7': () => ({ body: view() }),
    'POST /lab-toolbox/storage/plates/7/wells': (body) => {
      const { well, sampleId } = body as { well: string; sampleId: string };
      if (sampleId !== sampleId.trim()) return apiRefusal(400, 'validation_failed', 'Sample id must not start or end with a space', [{ field: 'sampleId', message: 'Sample id must not start or end with a space' }]);
      const taken = wells.find((w) => w.well === well);
      if (taken) return apiRefusal(409, 'conflict', `Well ${well} of plate P-0007 is already taken by ${taken.label}`, [{ field: 'well', message: '…' }]);
      wells.push(stored(well, sampleId, 'In Testing'));
      return {
        status: 201,
        body: {
          plate: { id: 7, name: 'P-0007' }, well, label: sampleId, kind: 'sample', nextFreeWell: nextFreeWell(wells.map((w) => w.well), well),
          sample: { id: 1, barcode: sampleId, previousStatus: 'In Testing', status: 'In Storage' }, message: `${sampleId} is In Storage in P-0007 ${well}`,
        },
      };
    },
    'POST /lab-toolbox/storage/plates/7/wells/A1/take-out': () => {
      const [w] = wells.splice(wells.findIndex((x) => x.well === 'A1'), 1);
      return { body: { plate: { id: 7, name: 'P-0007' }, well: 'A1', label: w.label, kind: 'sample', sample: null, message: `${w.label} taken out of P-0007 A1: back to Completed` } };
    },
    'POST /lab-toolbox/storage/discard': (body) => {
      const id = (body as { sampleId: string }).sampleId;
      wells.splice(wells.findIndex((x) => x.label === id), 1);
      return { body: { sample: { id: 1, barcode: id, previousStatus: 'In Storage', status: 'Discarded' }, takenFrom: null, discardedBy: lab1, discardedAt: '2026-11-21T10:00:00Z', message: `${id} discarded (taken out of P-0007 A1)` } };
    },
  });
  if (gate) {
    const answer = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      if (init?.method === 'POST' && String(input).endsWith('/wells')) await gate;
      return answer(input, init);
    });
  }
  return sent;
}

const placements = (sent: SentRequest[]) => sent.filter((r) => r.method === 'POST' && r.path.endsWith('/wells')).map((r) => r.body);

describe('StoragePlatesPage', () => {
  it('scans in a row without the mouse: each Enter places the scan in the suggested well, scans queue while one is sent, the box keeps the focus', async () => {
    const user = userEvent.setup({ delay: null });
    let open!: () => void;
    const sent = storageApi([stored('A1', '61000000000001', 'Completed')], new Promise<void>((resolve) => { open = resolve; }));
    renderPage(<StoragePlatesPage />, { path: PATH, route: `${PATH}?plate=7` });

    const box = await screen.findByRole('textbox', { name: /Scan a sample id into P-0007/ });
    await waitFor(() => expect(document.activeElement).toBe(box));
    expect(screen.getByRole('textbox', { name: /^Well/ })).toHaveProperty('value', 'B1');

    // Three scans while the first placement is still on its way: they wait their turn.
    await user.keyboard('61000000000002{Enter}61000000000003{Enter}61000000000004 {Enter}');
    expect(document.activeElement).toBe(box);
    expect(placements(sent)).toHaveLength(0);
    open();

    const log = await screen.findByRole('table', { name: 'Scan log' });
    await within(log).findByText('61000000000003 is In Storage in P-0007 C1');
    await within(log).findByText('Sample id must not start or end with a space');
    // Sent one after another, each to the well the previous answer suggested, exactly as scanned (the space kept).
    expect(placements(sent)).toEqual([
      { well: 'B1', sampleId: '61000000000002' },
      { well: 'C1', sampleId: '61000000000003' },
      { well: 'D1', sampleId: '61000000000004 ' },
    ]);
    expect(within(log).getAllByRole('row').map((r) => r.getAttribute('data-outcome'))).toEqual(['refused', 'placed', 'placed']);
    expect(screen.getByText('This session: 2 placed · 1 refused')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: /^Well/ })).toHaveProperty('value', 'D1');
    expect(document.activeElement).toBe(box);

    // The map shows the new samples (how it draws them: StoragePlateMap.test.tsx).
    await screen.findByText('Well C1: 61000000000003, In Storage (In Testing when taken out)');
  });

  it('a click on an empty well sends the next scan there; a refused scan says why and the well stays', async () => {
    const user = userEvent.setup({ delay: null });
    const sent = storageApi([stored('A1', '61000000000001', 'Completed')]);
    renderPage(<StoragePlatesPage />, { path: PATH, route: `${PATH}?plate=7` });
    await user.click(await screen.findByText('Well F6, empty'));
    const box = screen.getByRole('textbox', { name: /Scan a sample id into P-0007/ });
    await waitFor(() => expect(document.activeElement).toBe(box));
    expect(screen.getByRole('textbox', { name: /^Well/ })).toHaveProperty('value', 'F6');
    await user.keyboard('61000000000009{Enter}');
    await screen.findByText('61000000000009 is In Storage in P-0007 F6');
    expect(screen.getByRole('textbox', { name: /^Well/ })).toHaveProperty('value', 'G6');

    await user.clear(screen.getByRole('textbox', { name: /^Well/ }));
    await user.type(screen.getByRole('textbox', { name: /^Well/ }), 'A1');
    await user.click(box);
    await user.keyboard('61000000000010{Enter}');
    await screen.findByText('Well A1 of plate P-0007 is already taken by 61000000000001');
    expect(placements(sent).at(-1)).toEqual({ well: 'A1', sampleId: '61000000000010' });
    expect(screen.getByRole('textbox', { name: /^Well/ })).toHaveProperty('value', 'A1');
  });

  it('a click on a filled well shows its status; take out sends it back', async () => {
    const user = userEvent.setup({ delay: null });
    const sent = storageApi([stored('A1', '61000000000001', 'Completed')]);
    renderPage(<StoragePlatesPage />, { path: PATH, route: `${PATH}?plate=7` });
    await user.click(await screen.findByText('Well A1: 61000000000001, In Storage (Completed when taken out)'));
    const detail = screen.getByRole('region', { name: 'Well A1' });
    expect(within(detail).getByText('sample · In Storage (Completed when taken out)')).toBeTruthy();
    expect(within(detail).getByText(/^Placed by Leo Bench, /)).toBeTruthy();
    await user.click(within(detail).getByRole('button', { name: 'Take out' }));
    await screen.findByText('61000000000001 taken out of P-0007 A1: back to Completed');
    expect(sent.some((r) => r.method === 'POST' && r.path === '/lab-toolbox/storage/plates/7/wells/A1/take-out')).toBe(true);
    await screen.findByText('Well A1, empty');
  });

  it('dismissing what was done gives the focus back to the scan box', async () => {
    const user = userEvent.setup({ delay: null });
    storageApi([stored('A1', '61000000000001', 'Completed')]);
    renderPage(<StoragePlatesPage />, { path: PATH, route: `${PATH}?plate=7` });
    await user.click(await screen.findByText('Well A1: 61000000000001, In Storage (Completed when taken out)'));
    await user.click(within(screen.getByRole('region', { name: 'Well A1' })).getByRole('button', { name: 'Take out' }));
    await screen.findByText('61000000000001 taken out of P-0007 A1: back to Completed');
    const box = screen.getByRole('textbox', { name: /Scan a sample id into P-0007/ });
    await waitFor(() => expect(document.activeElement).toBe(box));

    // Shift+Tab from the scan box past the well box to the message's close button, then Enter.
    await user.tab({ shift: true });
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Dismiss' }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByText('61000000000001 taken out of P-0007 A1: back to Completed')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(box));
  });

  it('discards a Completed sample only after a confirmation; a sample that left another status cannot be discarded', async () => {
    const user = userEvent.setup({ delay: null });
    const sent = storageApi([stored('A1', '61000000000001', 'Completed'), stored('B1', '61000000000002', 'In Testing')]);
    renderPage(<StoragePlatesPage />, { path: PATH, route: `${PATH}?plate=7&well=B1` });
    const testing = await screen.findByRole('region', { name: 'Well B1' });
    expect(within(testing).getByRole('button', { name: 'Discard…' })).toHaveProperty('disabled', true);
    expect(within(testing).getByText('Only a Completed sample can be discarded.')).toBeTruthy();

    await user.click(screen.getByText('Well A1: 61000000000001, In Storage (Completed when taken out)'));
    const detail = screen.getByRole('region', { name: 'Well A1' });
    await user.click(within(detail).getByRole('button', { name: 'Discard…' }));
    expect(sent.some((r) => r.path === '/lab-toolbox/storage/discard')).toBe(false);
    await user.click(within(detail).getByRole('button', { name: 'Discard' }));
    await screen.findByText('61000000000001 discarded (taken out of P-0007 A1)');
    expect(sent.find((r) => r.path === '/lab-toolbox/storage/discard')?.body).toEqual({ sampleId: '61000000000001' });
  });

  it('finds a sample: its plate and well, and opens the plate there', async () => {
    const user = userEvent.setup({ delay: null });
    storageApi([stored('A1', '61000000000001', 'Completed')]);
    mockApiExtra({
      'GET /lab-toolbox/storage/find?sampleId=61000000000001': {
        body: { sample: { id: 1, barcode: '61000000000001', status: 'In Storage', statusBeforeStorage: 'Completed' }, places: [{ plateId: 7, plateName: 'P-0007', well: 'A1', label: '61000000000001', kind: 'sample', placedAt: '2026-11-20T10:00:00Z', placedBy: lab1, removedAt: null, removedBy: null, removal: null }], history: [] },
      },
      'GET /lab-toolbox/storage/find?sampleId=61000000000099': apiRefusal(404, 'not_found', 'No sample has id 61000000000099'),
    });
    renderPage(<StoragePlatesPage />, { path: PATH, route: PATH });
    await user.type(screen.getByRole('textbox', { name: 'Find a sample' }), '61000000000099{Enter}');
    expect((await screen.findByText('No sample has id 61000000000099')).getAttribute('role')).toBe('alert');
    await user.clear(screen.getByRole('textbox', { name: 'Find a sample' }));
    await user.type(screen.getByRole('textbox', { name: 'Find a sample' }), '61000000000001{Enter}');
    await screen.findByText((_, el) => el?.tagName === 'P' && el.textContent === 'plate P-0007, well A1');
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await screen.findByRole('region', { name: 'Well A1' });
  });

  it('places a file: the check lists the bad rows by row number and keeps commit off; a clean check commits the exact file', async () => {
    const user = userEvent.setup({ delay: null });
    storageApi([]);
    let clean = false;
    let broken = true;
    const rows = () => [
      { row: 2, plate: 'P-0008', well: 'A1', sampleId: '61000000000001', kind: 'sample', status: 'Completed', ok: true },
      { row: 3, plate: 'P-0008', well: 'B1 ', sampleId: 'Null', kind: 'null', status: null, ok: clean },
    ];
    const extra = mockApiExtra({
      'POST /lab-toolbox/import-samples-storage-plates': (body) => (broken
        ? apiRefusal(400, 'bad_request', 'The columns must be plate, well, sample_id; this file has: barcode', [{ field: 'file', message: 'The columns must be plate, well, sample_id; this file has: barcode' }])
        : (body as { mode: string }).mode === 'commit'
        ? { body: { mode: 'commit', fileName: 'plates.csv', rowCount: 2, placed: 2, samplesMovedToStorage: 1, plates: [{ id: 8, name: 'P-0008', created: true, placements: 2 }], message: '2 wells filled on P-0008 (new); 1 samples are In Storage' } }
        : { body: {
          mode: 'dry-run', fileName: 'plates.csv', format: 'csv', rowCount: 2, rows: rows(), plates: [{ name: 'P-0008', exists: false, placements: clean ? 2 : 1 }],
          errorCount: clean ? 0 : 1, errors: clean ? [] : [{ row: 3, column: 'well', value: 'B1 ', message: 'Well must not start or end with a space' }],
        } }),
    });
    renderPage(<StoragePlatesPage />, { path: PATH, route: PATH });
    const text = 'plate,well,sample_id\r\nP-0008,A1,61000000000001\r\nP-0008,B1 ,Null\r\n';
    await user.upload(document.querySelector('input[type="file"]') as HTMLInputElement, new File([text], 'plates.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Check the file' }));
    await screen.findByText('The columns must be plate, well, sample_id; this file has: barcode');
    expect(screen.queryByRole('button', { name: /^Commit/ })).toBeNull();

    broken = false;
    await user.click(screen.getByRole('button', { name: 'Check the file' }));
    const errors = await screen.findByRole('table', { name: 'Errors' });
    expect(within(errors).getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell').map((c) => c.textContent))).toEqual([
      ['3', 'well', 'B1␣', 'Well must not start or end with a space'],
    ]);
    expect(screen.getByRole('button', { name: 'Commit 2 rows' })).toHaveProperty('disabled', true);
    // The file goes as it is, bytes untouched (base64), to be checked only.
    expect(extra[1].body).toEqual({ fileName: 'plates.csv', content: btoa(text), mode: 'dry-run' });

    clean = true;
    await user.click(screen.getByRole('button', { name: 'Check the file' }));
    await screen.findByText('Every row can be placed');
    await user.click(screen.getByRole('button', { name: 'Commit 2 rows' }));
    await screen.findByText('2 wells filled on P-0008 (new); 1 samples are In Storage');
    expect(extra.map((r) => (r.body as { mode: string }).mode)).toEqual(['dry-run', 'dry-run', 'dry-run', 'commit']);
  });
});

/** Adds answers to the stand-in API of this test (mockApi's fetch answers the rest); records what they were sent. */
function mockApiExtra(routes: Record<string, MockAnswer | ((body: unknown) => MockAnswer)>): SentRequest[] {
  const answer = globalThis.fetch;
  const sent: SentRequest[] = [];
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const key = `${method} ${url.pathname.replace(/^\/api/, '')}${url.search}`;
    const route = routes[key];
    if (!route) return answer(input, init);
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    sent.push({ method, path: key.slice(method.length + 1), body });
    const reply = typeof route === 'function' ? route(body) : route;
    return new Response(JSON.stringify(reply.body), { status: reply.status ?? 200, headers: { 'content-type': 'application/json' } });
  });
  return sent;
}
