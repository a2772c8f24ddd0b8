import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ElrMode, Hl7MessageStatus, type ElrBatchView, type ElrReportView, type ElrSettingsView, type Hl7MessageView } from '@platform/domain';
import { apiRefusal, mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { findToast, ToastHost } from '../../test/toasts';
import { PublicHealthPage } from './PublicHealthPage';

const SETTINGS = '/admin/public-health/elr';
const REPORT = '/admin/public-health/elr/report';

const unconfigured: ElrSettingsView = {
  configured: false, enabled: false, mode: ElrMode.Mllp, host: null, port: null, folder: null, receivingApplication: '', receivingFacility: '', updatedAt: null,
};
const mllp: ElrSettingsView = {
  configured: true, enabled: true, mode: ElrMode.Mllp, host: 'elr.health.example.gov', port: 6661, folder: null,
  receivingApplication: 'STATE ELR', receivingFacility: 'STATE DOH', updatedAt: '2026-11-28T10:00:00Z',
};
const batchFile: ElrSettingsView = { ...mllp, mode: ElrMode.BatchFile, host: null, port: null, folder: 'state/outbox' };

const message = (over: Partial<Hl7MessageView>): Hl7MessageView => ({
  id: 7, controlId: 'E7', messageType: 'ORU^R01', reason: 'released', sample: 'PC00000007', test: 'COVID-19 PCR', status: Hl7MessageStatus.Failed,
  createdAt: '2026-11-27T10:00:00Z', attempts: 12, lastAttemptAt: '2026-11-28T10:00:00Z', ackCode: 'AE', ackText: 'Unknown facility', acknowledgedAt: null, ...over,
});
const batch = (over: Partial<ElrBatchView>): ElrBatchView => ({
  id: 1, fileName: 'ELR_20261127.hl7', messages: 4, createdAt: '2026-11-28T00:05:00Z', writtenAt: '2026-11-28T00:05:01Z', ...over,
});
const emptyReport: ElrReportView = { days: [], batches: [], messages: [] };

const renderPublicHealth = () =>
  renderPage(
    <>
      <PublicHealthPage />
      <ToastHost />
    </>,
    { path: '/admin/provider/public-health', route: '/admin/provider/public-health' },
  );

const settingsForm = () => screen.findByRole('form', { name: 'Public health reporting settings' });

describe('PublicHealthPage', () => {
  it('shows the saved settings; a batch file shows its folder in place of host and port', async () => {
    const user = userEvent.setup({ delay: null });
    mockApi({ [`GET ${SETTINGS}`]: { body: mllp }, [`GET ${REPORT}`]: { body: emptyReport } });
    renderPublicHealth();
    const form = await settingsForm();
    expect(within(form).getByRole('radio', { name: 'MLLP' })).toHaveProperty('checked', true);
    expect(within(form).getByLabelText('Host', { exact: false })).toHaveProperty('value', 'elr.health.example.gov');
    expect(within(form).getByRole('textbox', { name: /^Port/ })).toHaveProperty('value', '6661');
    expect(within(form).getByLabelText('Receiving application', { exact: false })).toHaveProperty('value', 'STATE ELR');
    expect(within(form).getByLabelText('Receiving facility', { exact: false })).toHaveProperty('value', 'STATE DOH');
    expect(within(form).getByRole('switch', { name: /Enabled/ })).toHaveProperty('checked', true);
    expect(within(form).queryByLabelText('Folder', { exact: false })).toBeNull();
    expect(await screen.findByText('No COVID-19 results reported in the last 30 days.')).toBeTruthy();
    // Not in batch-file mode: no batch files.
    expect(screen.queryByRole('heading', { name: 'Batch files' })).toBeNull();

    await user.click(within(form).getByRole('radio', { name: 'Daily batch file' }));
    expect(within(form).getByLabelText('Folder', { exact: false })).toBeTruthy();
    expect(within(form).getByText("A folder inside the server's ELR batch root")).toBeTruthy();
    expect(within(form).queryByLabelText('Host', { exact: false })).toBeNull();
    expect(within(form).queryByRole('textbox', { name: /^Port/ })).toBeNull();
  });

  it('saves exactly what the chosen mode uses', async () => {
    const user = userEvent.setup({ delay: null });
    let saved = unconfigured;
    const sent = mockApi({
      [`GET ${SETTINGS}`]: () => ({ body: saved }),
      [`PUT ${SETTINGS}`]: (body) => {
        saved = { ...unconfigured, ...(body as object), configured: true, updatedAt: '2026-11-28T10:00:00Z' };
        return { body: saved };
      },
      [`GET ${REPORT}`]: { body: emptyReport },
    });
    renderPublicHealth();
    const form = await settingsForm();
    expect(within(form).getByText('Not configured yet: no results are reported.')).toBeTruthy();

    await user.click(within(form).getByRole('radio', { name: 'Daily batch file' }));
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Folder is required')).toBeTruthy();
    expect(sent.some((r) => r.method === 'PUT')).toBe(false);

    await user.type(within(form).getByLabelText('Folder', { exact: false }), 'state/outbox');
    await user.type(within(form).getByLabelText('Receiving application', { exact: false }), 'STATE ELR');
    await user.type(within(form).getByLabelText('Receiving facility', { exact: false }), 'STATE DOH');
    await user.click(within(form).getByRole('switch', { name: /Enabled/ }));
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await findToast('Public health reporting saved: COVID-19 results are reported in a daily batch file.');
    expect(sent.filter((r) => r.method === 'PUT').map((r) => r.body)).toEqual([
      { enabled: true, mode: 'batch-file', host: null, port: null, folder: 'state/outbox', receivingApplication: 'STATE ELR', receivingFacility: 'STATE DOH' },
    ]);
    // Saved as a batch file: its section appears.
    expect(await screen.findByRole('heading', { name: 'Batch files' })).toBeTruthy();
  });

  it('sends host and port over MLLP, and shows the field the server refused next to it', async () => {
    const user = userEvent.setup({ delay: null });
    const sent = mockApi({
      [`GET ${SETTINGS}`]: { body: batchFile },
      [`GET ${REPORT}`]: { body: emptyReport },
      [`PUT ${SETTINGS}`]: apiRefusal(400, 'validation_failed', 'The settings are not valid', [{ field: 'host', message: 'Host must be a host name or an IP address' }]),
    });
    renderPublicHealth();
    const form = await settingsForm();
    await user.click(within(form).getByRole('radio', { name: 'MLLP' }));
    await user.type(within(form).getByLabelText('Host', { exact: false }), 'not a host');
    await user.type(within(form).getByRole('textbox', { name: /^Port/ }), '2575');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    const host = within(form).getByLabelText('Host', { exact: false });
    await waitFor(() => expect(host.getAttribute('aria-invalid')).toBe('true'));
    const error = within(form).getByText('Host must be a host name or an IP address');
    expect(host.getAttribute('aria-describedby')).toContain(error.id);
    expect(sent.find((r) => r.method === 'PUT')?.body).toEqual({
      enabled: true, mode: 'mllp', host: 'not a host', port: 2575, folder: null, receivingApplication: 'STATE ELR', receivingFacility: 'STATE DOH',
    });
  });

  it('shows the numbers of each day, newest first', async () => {
    mockApi({
      [`GET ${SETTINGS}`]: { body: mllp },
      [`GET ${REPORT}`]: {
        body: {
          ...emptyReport,
          days: [
            { day: '2026-11-26', reported: 3, sent: 3, acknowledged: 3, batched: 0, failed: 0, pending: 0 },
            { day: '2026-11-27', reported: 12, sent: 11, acknowledged: 9, batched: 0, failed: 2, pending: 1 },
          ],
        },
      },
    });
    renderPublicHealth();
    const table = await screen.findByRole('table', { name: 'Reports by day' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Day', 'Reported', 'Sent', 'Acknowledged', 'Batched', 'Failed', 'Pending']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell').map((c) => c.textContent))).toEqual([
      ['11/27/2026', '12', '11', '9', '0', '2', '1'],
      ['11/26/2026', '3', '3', '3', '0', '0', '0'],
    ]);
  });

  it('writes the batch file now and shows it after the refresh; a refusal shows its reason', async () => {
    const user = userEvent.setup({ delay: null });
    let batches: ElrBatchView[] = [batch({ id: 1, fileName: 'ELR_20261126.hl7' })];
    let waiting = true;
    const sent = mockApi({
      [`GET ${SETTINGS}`]: { body: batchFile },
      [`GET ${REPORT}`]: () => ({ body: { ...emptyReport, batches } }),
      [`POST ${SETTINGS}/batches`]: () => {
        if (!waiting) return apiRefusal(409, 'conflict', 'No reports wait for a batch file');
        waiting = false;
        const written = batch({ id: 2, fileName: 'ELR_20261128_1.hl7', messages: 5, writtenAt: null });
        batches = [written, ...batches];
        return { status: 201, body: written };
      },
    });
    renderPublicHealth();
    const table = await screen.findByRole('table', { name: 'Batch files' });
    expect(within(table).getByRole('row', { name: /ELR_20261126\.hl7/ })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Write the batch file now' }));
    await findToast('Batch file ELR_20261128_1.hl7 holds 5 reports; it waits to be written to the folder.');
    const row = await within(table).findByRole('row', { name: /ELR_20261128_1\.hl7/ });
    expect(within(row).getByText('Waiting')).toBeTruthy();
    expect(sent.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([`${SETTINGS}/batches`]);

    await user.click(screen.getByRole('button', { name: 'Write the batch file now' }));
    expect(await screen.findByText('No reports wait for a batch file')).toBeTruthy();
    expect(screen.getByText('No batch file was written')).toBeTruthy();
  });

  it('resends a failed message, and offers it for no other', async () => {
    const user = userEvent.setup({ delay: null });
    let messages = [message({}), message({ id: 6, controlId: 'E6', status: Hl7MessageStatus.Acknowledged, ackCode: 'AA', ackText: null, attempts: 1 })];
    const sent = mockApi({
      [`GET ${SETTINGS}`]: { body: mllp },
      [`GET ${REPORT}`]: () => ({ body: { ...emptyReport, messages } }),
      [`POST ${SETTINGS}/messages/7/resend`]: () => {
        const copy = message({ id: 9, controlId: 'E9', status: Hl7MessageStatus.Pending, attempts: 0, lastAttemptAt: null, ackCode: null, ackText: null });
        messages = [copy, ...messages];
        return { status: 201, body: copy };
      },
    });
    renderPublicHealth();
    const table = await screen.findByRole('table', { name: 'Latest messages' });
    const failed = within(table).getByRole('row', { name: /E7/ });
    expect(within(failed).getByText('Failed')).toBeTruthy();
    expect(within(failed).getByText('AE: Unknown facility')).toBeTruthy();
    expect(within(within(table).getByRole('row', { name: /E6/ })).queryByRole('button')).toBeNull();

    await user.click(within(failed).getByRole('button', { name: 'Resend message E7' }));
    await findToast('The COVID-19 PCR of PC00000007 is being reported again as message E9.');
    expect(sent.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([`${SETTINGS}/messages/7/resend`]);
    const copy = await within(table).findByRole('row', { name: /E9/ });
    expect(within(copy).getByText('Pending')).toBeTruthy();
    expect(within(copy).getByText('Not sent yet')).toBeTruthy();
  });
});
