import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AuditEventView, AuditTrailPage } from '@platform/domain';
import { apiRefusal, mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { AuditTrailPage as Page } from './AuditTrailPage';

const event = (over: Partial<AuditEventView>): AuditEventView => ({
  id: 41, at: '2026-11-28T10:00:00Z', actorKind: 'lab', actor: { id: 3, name: 'Leo Bench', email: 'lab1@demo.test' }, ip: '10.1.2.3',
  action: 'sample.metadata_corrected', entityKind: 'sample', entityId: '9', entityLabel: 'PC00000009',
  changes: [{ field: 'collectedAt', old: '2026-10-02T15:00:00.000Z', new: '2026-10-03T15:00:00.000Z' }], details: {}, sealed: true, ...over,
});
const page = (events: AuditEventView[], nextBefore: number | null = null, archivedMonths: string[] = []): { body: AuditTrailPage } => ({ body: { events, nextBefore, archivedMonths } });

const renderTrail = (route = '/admin/provider/audit-trail') => renderPage(<Page />, { path: '/admin/provider/audit-trail', route });

describe('AuditTrailPage', () => {
  it("shows a sample's events from the link's barcode: who, from where, what, the old and new values; pages to older events", async () => {
    const user = userEvent.setup({ delay: null });
    const sent = mockApi({
      'GET /admin/audit-trail?barcode=PC00000009': page([event({})], 41),
      'GET /admin/audit-trail?barcode=PC00000009&before=41': page([event({ id: 12, action: 'sample.viewed', changes: [], ip: null })]),
    });
    renderTrail('/admin/provider/audit-trail?barcode=PC00000009');
    const table = await screen.findByRole('table', { name: 'Audit events' });
    expect(screen.getByLabelText('Sample barcode')).toHaveProperty('value', 'PC00000009');
    const row = within(table).getAllByRole('row')[1];
    expect(within(row).getByText('Leo Bench')).toBeTruthy();
    expect(within(row).getByText('lab1@demo.test')).toBeTruthy();
    expect(within(row).getByText('10.1.2.3')).toBeTruthy();
    expect(within(row).getByText('sample.metadata_corrected')).toBeTruthy();
    const changes = within(row).getByRole('list', { name: 'Changes' });
    expect(changes.textContent).toBe('collectedAt: 2026-10-02T15:00:00.000Z → 2026-10-03T15:00:00.000Z');
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe('/api/admin/audit-trail/export.csv?barcode=PC00000009');

    await user.click(screen.getByRole('button', { name: 'Older events' }));
    expect(await screen.findByText('sample.viewed')).toBeTruthy();
    expect(sent.map((r) => r.path)).toContain('/admin/audit-trail?barcode=PC00000009&before=41');
    expect(screen.getByRole('button', { name: 'Older events' })).toHaveProperty('disabled', true);
  });

  it('applies the filters it is given, a patient found by name among them, and says why nothing shows for a barcode it does not know', async () => {
    const user = userEvent.setup({ delay: null });
    const sent = mockApi({
      'GET /admin/audit-trail': page([]),
      'POST /admin/audit-trail/patients/search': { body: [{ id: 77, name: 'Walter Quill', dateOfBirth: '1957-08-19', accountName: 'North Clinic' }] },
      'GET /admin/audit-trail?patientId=77&user=lab1%40demo.test&action=sample': page([event({})]),
      'GET /admin/audit-trail?barcode=NOPE': apiRefusal(404, 'not_found', 'Sample not found', [{ field: 'barcode', message: 'Sample not found' }]),
    });
    renderTrail();
    expect(await screen.findByText('No event matches these filters.')).toBeTruthy();
    await user.type(screen.getByLabelText('Patient (id or name)'), 'quill');
    await user.click(screen.getByRole('button', { name: 'Find' }));
    await user.click(await screen.findByRole('button', { name: /Walter Quill, born 1957-08-19 \(North Clinic\) · id 77/ }));
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({ q: 'quill' });
    expect(screen.getByText('Patient id 77')).toBeTruthy();
    await user.type(screen.getByLabelText('User (email)'), 'lab1@demo.test');
    await user.type(screen.getByLabelText('Action', { exact: false }), 'sample');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(await screen.findByText('sample.metadata_corrected')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await user.type(await screen.findByLabelText('Sample barcode'), 'NOPE');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(await screen.findByText('Sample not found')).toBeTruthy();
  });

  it('says which months are archived when the filters reach back into them (no from date)', async () => {
    mockApi({ 'GET /admin/audit-trail?action=sample': page([event({})], null, ['2026-07', '2026-08']) });
    renderTrail('/admin/provider/audit-trail?action=sample');
    expect(await screen.findByText('Events before 2026-09 are archived')).toBeTruthy();
    expect(screen.getByText(/The months 2026-07 to 2026-08 \(UTC\) were archived to files the lab keeps/)).toBeTruthy();
  });

  it('makes a PDF and offers it for download, and verifies the trail', async () => {
    const user = userEvent.setup({ delay: null });
    let polls = 0;
    const sent = mockApi({
      'GET /admin/audit-trail': page([event({})]),
      'POST /admin/audit-trail/exports': { status: 202, body: { id: 5, status: 'Pending', error: null, downloadPath: null, events: null, createdAt: '2026-11-28T10:00:00Z' } },
      'GET /admin/audit-trail/exports/5': () => {
        polls += 1;
        return { body: { id: 5, status: 'Completed', error: null, downloadPath: '/admin/audit-trail/exports/5/file', events: 1, createdAt: '2026-11-28T10:00:00Z' } };
      },
      'POST /admin/audit-trail/verify': { body: { ok: false, checked: 40, unsealed: 0, headId: 40, headHash: 'ab', broken: { id: 41, chainSeq: 41, reason: 'its content does not match its hash: the row was changed after it was sealed' }, verifiedAt: '2026-11-28T10:00:00Z' } },
    });
    renderTrail();
    await screen.findByRole('table', { name: 'Audit events' });
    await user.click(screen.getByRole('button', { name: 'Make a PDF' }));
    const link = await screen.findByRole('link', { name: 'Download PDF (1 events)' }, { timeout: 3000 });
    expect(link.getAttribute('href')).toBe('/api/admin/audit-trail/exports/5/file');
    expect(polls).toBe(1);
    expect(sent.find((r) => r.path === '/admin/audit-trail/exports')?.body).toEqual({ patientId: null, barcode: null, user: null, action: null, from: null, to: null });

    await user.click(screen.getByRole('button', { name: 'Verify the trail' }));
    expect(await screen.findByText('The audit trail is broken at event #41')).toBeTruthy();
    expect(screen.getByText(/the row was changed after it was sealed/)).toBeTruthy();
  });
});
