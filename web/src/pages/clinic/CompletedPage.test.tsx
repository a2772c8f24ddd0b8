import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SampleStatus, TestOrigin, type ResultListRow } from '@platform/domain';
import { mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { findToast, ToastHost } from '../../test/toasts';
import { CompletedActions } from './CompletedPage';

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
