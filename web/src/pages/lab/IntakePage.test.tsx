import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REJECTION_REASONS } from '@platform/domain';
import { apiRefusal, mockApi, type MockHandler } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { IntakePage } from './IntakePage';

const PATH = '/lab_toolbox/intake_tool';
const KITS = ['61000000000101', '61000000000102', '61000000000103'];

const outcome = (barcode: string, status: string, message: string) => ({
  body: { sampleId: Number(barcode.slice(-3)), barcode, tests: ['KRAS'], account: 'Riverside Oncology', patient: 'Testy L.', previousStatus: 'In Transit', status, receivedAt: null, rejectionReason: null, message },
});

function intakeApi(labels: Record<string, MockHandler> = {}) {
  return mockApi({
    'POST /lab-toolbox/intake/receive': (body) => {
      const { barcode } = body as { barcode: string };
      return outcome(barcode, 'In Queue', `Received ${barcode} (KRAS): now In Queue`);
    },
    'POST /lab-toolbox/intake/reject': (body) => {
      const { barcode, reason } = body as { barcode: string; reason: string };
      return outcome(barcode, 'Rejected', `Rejected ${barcode}: ${reason}`);
    },
    'GET /lab-toolbox/labels/samples/pdf': { body: '%PDF-', headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="labels.pdf"' } },
    'GET /lab-toolbox/labels/samples/zpl': { body: '^XA^XZ', headers: { 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="labels.zpl"' } },
    ...labels,
  });
}

const labelRequests = (sent: { method: string; path: string }[]) => sent.filter((r) => r.path.startsWith('/lab-toolbox/labels/')).map((r) => r.path);

async function scan(user: ReturnType<typeof userEvent.setup>, barcode: string) {
  const box = screen.getByRole('textbox', { name: /^Scan a kit to/ });
  await user.type(box, `${barcode}{Enter}`);
  await screen.findByText(new RegExp(`^(Received|Rejected) ${barcode}`));
}

describe('IntakePage: printing labels', () => {
  beforeEach(() => {
    localStorage.clear();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:labels'), revokeObjectURL: vi.fn() }));
  });
  afterEach(() => vi.unstubAllGlobals());

  it("prints the session's labels (received and rejected kits, in scan order) on a sheet, then moves the first free label on", async () => {
    const sent = intakeApi();
    const user = userEvent.setup();
    renderPage(<IntakePage />, { route: PATH, path: PATH });
    const printSession = screen.getByRole('button', { name: /^Print this session's labels/ });
    expect((printSession as HTMLButtonElement).disabled).toBe(true);

    await scan(user, KITS[0]);
    await scan(user, KITS[1]);
    await user.click(screen.getByText('Reject'));
    await user.click(screen.getByRole('combobox', { name: 'Rejection reason' }));
    await user.click(await screen.findByRole('option', { name: REJECTION_REASONS[0], hidden: true }));
    await scan(user, KITS[2]);

    expect((screen.getByRole('button', { name: "Print this session's labels (3)" }) as HTMLButtonElement).disabled).toBe(false);
    const start = screen.getByRole('textbox', { name: 'First free label on the sheet' });
    expect((start as HTMLInputElement).value).toBe('1');
    await user.click(screen.getByRole('button', { name: "Print this session's labels (3)" }));
    await waitFor(() => expect((start as HTMLInputElement).value).toBe('4'));
    expect(labelRequests(sent)).toEqual([`/lab-toolbox/labels/samples/pdf?${KITS.map((k) => `barcodes=${k}`).join('&')}&layout=sheet&start=1`]);
  });

  it("prints one scan's label from its row, on the paper chosen (thermal, then Zebra ZPL), remembered for the next visit", async () => {
    const sent = intakeApi();
    const user = userEvent.setup();
    const { unmount } = renderPage(<IntakePage />, { route: PATH, path: PATH });
    await scan(user, KITS[0]);
    const log = screen.getByRole('table', { name: 'Scan log' });

    await user.click(screen.getByText('Thermal 2 × 1 in'));
    expect(screen.queryByRole('textbox', { name: 'First free label on the sheet' })).toBeNull();
    await user.click(within(log).getByRole('button', { name: `Print label for ${KITS[0]}` }));
    await user.click(screen.getByText('Zebra (ZPL)'));
    await user.click(within(log).getByRole('button', { name: `Print label for ${KITS[0]}` }));
    await waitFor(() => expect(labelRequests(sent)).toEqual([
      `/lab-toolbox/labels/samples/pdf?barcodes=${KITS[0]}&layout=thermal`,
      `/lab-toolbox/labels/samples/zpl?barcodes=${KITS[0]}`,
    ]));
    expect(screen.queryByRole('alert')).toBeNull();

    unmount();
    renderPage(<IntakePage />, { route: PATH, path: PATH });
    expect((screen.getByRole('radio', { name: 'Zebra (ZPL)' }) as HTMLInputElement).checked).toBe(true);
  });

  it('says why the labels could not be printed', async () => {
    intakeApi({ 'GET /lab-toolbox/labels/samples/pdf': apiRefusal(404, 'not_found', `No sample has barcode ${KITS[0]}`) });
    const user = userEvent.setup();
    renderPage(<IntakePage />, { route: PATH, path: PATH });
    await scan(user, KITS[0]);
    await user.click(screen.getByRole('button', { name: `Print label for ${KITS[0]}` }));
    expect((await screen.findByRole('alert')).textContent).toBe(`The labels could not be printed: No sample has barcode ${KITS[0]}`);
    expect((screen.getByRole('textbox', { name: 'First free label on the sheet' }) as HTMLInputElement).value).toBe('1');
  });
});
