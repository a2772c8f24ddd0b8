import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SampleStatus, TestOrigin, type ResultListRow } from '@platform/domain';
import { mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { findToast, ToastHost } from '../../test/toasts';
import { AwaitingReviewNote, CompletedActions } from './CompletedPage';

const row: ResultListRow = {
  sampleId: 31, barcode: '41000000000031', status: SampleStatus.Completed, statusBeforeStorage: null, rejectionReason: null, sampleType: 'Buccal Swab',
  tests: ['PROSTOX ultra'], orderId: 3, orderNumber: 'RF_000000003', origin: TestOrigin.ProviderOrdered, orderedAt: '2026-10-01T10:00:00Z',
  resultedAt: '2026-10-20T10:00:00Z', patient: { id: 9, firstName: 'Ada', lastName: 'Quill', dateOfBirth: '1950-01-02' }, physician: null,
  reportAvailable: true, patientOrder: null, awaitingReview: null,
};

describe('CompletedActions: Send result email', () => {
  it('says what a new result email does (the earlier link stops working) and sends only once confirmed', async () => {
    const user = userEvent.setup();
    const sent = mockApi({ 'POST /provider-clinic/1/patient/send-result-email': { status: 202, body: { message: 'Result email sent to the patient' } } });
    renderPage(<><CompletedActions accountId={1} row={row} /><ToastHost /></>);
    await user.click(screen.getByRole('button', { name: 'Send result email for 41000000000031' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send Ada Quill a new result email?' });
    expect(within(dialog).getByText(/The link sent before stops working at once\.$/)).toBeTruthy();
    expect(sent.some((r) => r.method === 'POST')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Not now' }));
    expect(sent.some((r) => r.method === 'POST')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Send result email for 41000000000031' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Send Ada Quill a new result email?' })).getByRole('button', { name: 'Send the email' }));
    await findToast('Result email sent to the patient');
    expect(sent.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([{ sampleId: 31 }]);
  });
});

describe('CompletedActions: a result awaiting the clinic\'s review', () => {
  const held: ResultListRow = { ...row, tests: ['PREVIOTOX'], awaitingReview: { tests: ['PREVIOTOX'], releaseDueAt: '2026-10-23T16:30:00.000Z' } };

  it('says it awaits review and when it goes to the patient; "Mark reviewed" sends it only once confirmed (no "Send result email")', async () => {
    const user = userEvent.setup();
    const sent = mockApi({
      'POST /provider-clinic/1/samples/31/mark-reviewed': { body: { sampleId: 31, reviewedAt: '2026-10-21T10:00:00.000Z', releasedToPatient: ['PREVIOTOX'], message: 'Marked reviewed. The patient is sent their PREVIOTOX result now.' } },
    });
    renderPage(<><AwaitingReviewNote row={held} /><CompletedActions accountId={1} row={held} /><ToastHost /></>);
    expect(screen.getByText('Awaiting your review')).toBeTruthy();
    expect(screen.getByText('Goes to the patient on 10/23/2026')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send result email for 41000000000031' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Mark reviewed 41000000000031' }));
    const dialog = await screen.findByRole('dialog', { name: "Mark Ada Quill's PREVIOTOX result reviewed?" });
    expect(within(dialog).getByText(/Without your review it goes to them on 10\/23\/2026\.$/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Not now' }));
    expect(sent.some((r) => r.method === 'POST')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Mark reviewed 41000000000031' }));
    await user.click(within(await screen.findByRole('dialog', { name: "Mark Ada Quill's PREVIOTOX result reviewed?" })).getByRole('button', { name: 'Mark reviewed' }));
    await findToast('Marked reviewed. The patient is sent their PREVIOTOX result now.');
    expect(sent.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/provider-clinic/1/samples/31/mark-reviewed']);
  });

  it('says nothing for a result that awaits nothing', () => {
    mockApi({});
    renderPage(<AwaitingReviewNote row={row} />);
    expect(screen.queryByText('Awaiting your review')).toBeNull();
  });
});
