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
  body: { sampleId: Number(barcode.slice(-3)), barcode, tests: ['KRAS'], account: 'Riverside Oncology', patient: 'Testy L.', previousStatus: 'In Transit', status, receivedAt: null, rejectionReason: null, condition: 'acceptable', collectedAt: null, message },
});

const ORDERED_AT = '2026-11-20T15:00:00.000Z';
/** A kit as GET intake/kits/{barcode} answers it: In Transit, its requisition naming the patient. */
const kit = (barcode: string, extra: Record<string, unknown> = {}) => ({
  body: {
    sampleId: Number(barcode.slice(-3)), barcode, tests: ['KRAS'], account: 'Riverside Oncology', status: 'In Transit', receivable: true, problem: null,
    sampleType: 'Saliva', orderedAt: ORDERED_AT, collectedAt: '2026-11-21T09:30:00.000Z',
    requisition: { firstName: 'Testy', lastName: 'Labson', dateOfBirth: '1960-02-03', studyId: null }, ...extra,
  },
});
const kitRoutes = Object.fromEntries(KITS.map((k) => [`GET /lab-toolbox/intake/kits/${k}`, kit(k)]));

function intakeApi(labels: Record<string, MockHandler> = {}) {
  return mockApi({
    ...kitRoutes,
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

/** A scan as the technician does it: in Receive, the kit's check filled for a sound kit (acceptable, the order's collection time, identity confirmed), then Receive. */
async function scan(user: ReturnType<typeof userEvent.setup>, barcode: string) {
  const box = screen.getByRole('textbox', { name: /^Scan a kit to/ });
  const receiving = screen.queryByRole('textbox', { name: 'Scan a kit to receive it' }) !== null;
  await user.type(box, `${barcode}{Enter}`);
  if (receiving) {
    const check = await screen.findByRole('region', { name: `Check kit ${barcode}` });
    await user.click(within(check).getByRole('radio', { name: 'Acceptable' }));
    await user.click(within(check).getByRole('checkbox', { name: 'The name and date of birth on the tube match the requisition' }));
    await user.click(within(check).getByRole('button', { name: 'Receive' }));
  }
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
    await user.click(screen.getByRole('combobox', { name: 'Specimen condition' }));
    await user.click(await screen.findByRole('option', { name: 'Leaked', hidden: true }));
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

describe('IntakePage: checking the specimen before it is received', () => {
  afterEach(() => vi.unstubAllGlobals());

  const receiveBodies = (sent: { method: string; path: string; body: unknown }[]) => sent.filter((r) => r.path === '/lab-toolbox/intake/receive').map((r) => r.body);
  const rejectBodies = (sent: { method: string; path: string; body: unknown }[]) => sent.filter((r) => r.path === '/lab-toolbox/intake/reject').map((r) => r.body);

  it("asks the condition, the collection time (the order's prefilled) and the identity confirmation beside the requisition's name and date of birth; Receive sends them", async () => {
    const sent = intakeApi({ [`GET /lab-toolbox/intake/kits/${KITS[0]}`]: kit(KITS[0], { collectedAt: null }) });
    const user = userEvent.setup();
    renderPage(<IntakePage />, { route: PATH, path: PATH });
    await user.type(screen.getByRole('textbox', { name: 'Scan a kit to receive it' }), `${KITS[0]}{Enter}`);
    const check = await screen.findByRole('region', { name: `Check kit ${KITS[0]}` });
    // The lab's own screen: the requisition's full name and date of birth beside the confirmation.
    expect(within(check).getByTestId('requisition-identity').textContent).toBe('Testy Labson, born 02/03/1960');
    // The condition takes the focus first.
    await waitFor(() => expect(document.activeElement).toBe(within(check).getByRole('radio', { name: 'Acceptable' })));

    // Receive with nothing filled: each missing answer said on its field, nothing sent.
    await user.click(within(check).getByRole('button', { name: 'Receive' }));
    expect(within(check).getByText('Choose the specimen’s condition')).toBeTruthy();
    expect(within(check).getByText('Type the collection date and time written on the tube')).toBeTruthy();
    expect(within(check).getByText('Confirm the name and date of birth on the tube match the requisition, or reject the kit')).toBeTruthy();
    expect(receiveBodies(sent)).toEqual([]);

    await user.click(within(check).getByRole('radio', { name: 'Acceptable' }));
    const collected = within(check).getByLabelText(/^Collected at/);
    await user.type(collected, '2026-11-21T08:15');
    await user.click(within(check).getByRole('checkbox', { name: 'The name and date of birth on the tube match the requisition' }));
    await user.click(within(check).getByRole('button', { name: 'Receive' }));
    await screen.findByText(`Received ${KITS[0]} (KRAS): now In Queue`);
    expect(receiveBodies(sent)).toEqual([{ barcode: KITS[0], condition: 'acceptable', collectedAt: new Date('2026-11-21T08:15').toISOString(), identityConfirmed: true }]);
    // The check closes and the scan box has the focus again for the next kit.
    expect(screen.queryByRole('region', { name: /^Check kit/ })).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Scan a kit to receive it' })));
  });

  it('a leaked specimen: Receive is off, the rejection its condition calls for is offered and sent with the condition', async () => {
    const sent = intakeApi();
    const user = userEvent.setup();
    renderPage(<IntakePage />, { route: PATH, path: PATH });
    await user.type(screen.getByRole('textbox', { name: 'Scan a kit to receive it' }), `${KITS[1]}{Enter}`);
    const check = await screen.findByRole('region', { name: `Check kit ${KITS[1]}` });
    // Prefilled from the order.
    expect((within(check).getByLabelText(/^Collected at/) as HTMLInputElement).value).not.toBe('');
    await user.click(within(check).getByRole('radio', { name: 'Leaked' }));
    expect(within(check).getByText('A leaked tube lost specimen and may be contaminated: it is rejected.')).toBeTruthy();
    expect((within(check).getByRole('button', { name: 'Receive' }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(check).getByRole('combobox', { name: 'Rejection reason' }) as HTMLInputElement).value).toBe('Rejected - quantity not sufficient');
    await user.click(within(check).getByRole('button', { name: 'Reject' }));
    await screen.findByText(`Rejected ${KITS[1]}: Rejected - quantity not sufficient`);
    expect(rejectBodies(sent)).toEqual([{ barcode: KITS[1], condition: 'leaked', collectedAt: '2026-11-21T09:30:00.000Z', reason: 'Rejected - quantity not sufficient' }]);
    expect(receiveBodies(sent)).toEqual([]);
  });

  it("an insufficient specimen is received only with a note; the server's refusal lands on its field", async () => {
    const sent = intakeApi({
      'POST /lab-toolbox/intake/receive': apiRefusal(400, 'bad_request', 'The collection time cannot be in the future', [{ field: 'collectedAt', message: 'The collection time cannot be in the future' }]),
    });
    const user = userEvent.setup();
    renderPage(<IntakePage />, { route: PATH, path: PATH });
    await user.type(screen.getByRole('textbox', { name: 'Scan a kit to receive it' }), `${KITS[2]}{Enter}`);
    const check = await screen.findByRole('region', { name: `Check kit ${KITS[2]}` });
    await user.click(within(check).getByRole('radio', { name: 'Insufficient' }));
    await user.click(within(check).getByRole('checkbox', { name: 'The name and date of birth on the tube match the requisition' }));
    await user.click(within(check).getByRole('button', { name: 'Receive' }));
    expect(within(check).getByText('An insufficient specimen is received only with a note saying why it is tested anyway')).toBeTruthy();
    expect(receiveBodies(sent)).toEqual([]);
    await user.type(within(check).getByRole('textbox', { name: /^Condition note/ }), 'Director approved');
    await user.click(within(check).getByRole('button', { name: 'Receive' }));
    expect(await within(check).findByText('The collection time cannot be in the future')).toBeTruthy();
    expect(receiveBodies(sent)).toHaveLength(1);
    expect(receiveBodies(sent)[0]).toMatchObject({ condition: 'insufficient', conditionNote: 'Director approved' });
  });

  it('a kit that cannot be received is said at once in the log, with no check', async () => {
    intakeApi({ [`GET /lab-toolbox/intake/kits/${KITS[0]}`]: kit(KITS[0], { status: 'In Queue', receivable: false, problem: `Sample ${KITS[0]} was already received on 11/21/2026` }) });
    const user = userEvent.setup();
    renderPage(<IntakePage />, { route: PATH, path: PATH });
    await user.type(screen.getByRole('textbox', { name: 'Scan a kit to receive it' }), `${KITS[0]}{Enter}`);
    await screen.findByText(`Sample ${KITS[0]} was already received on 11/21/2026`);
    expect(screen.queryByRole('region', { name: /^Check kit/ })).toBeNull();
  });
});
