import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FollowUpKind, FollowUpStatus, NO_EMAIL_REASON, type FollowUpView } from '@platform/domain';
import { apiRefusal, mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { AskPatientButton } from './SampleQuestions';

const BARCODE = '61000000000042';

function followUp(id: number, extra: Partial<FollowUpView>): FollowUpView {
  return {
    id, kind: FollowUpKind.Question, sampleId: 42, barcode: BARCODE, status: FollowUpStatus.Sent, months: null, question: 'Was the tube sealed?',
    dueAt: '2026-11-20T10:00:00.000Z', sentAt: '2026-11-20T10:00:00.000Z', remindedAt: null, answeredAt: null, answer: null, notSendableReason: null, ...extra,
  };
}

const answered = followUp(1, { status: FollowUpStatus.Answered, answeredAt: '2026-11-21T10:00:00.000Z', answer: { answer: 'Other', comment: 'Half sealed' } });

describe('AskPatientButton (Lab Toolbox)', () => {
  it('shows the questions already asked with status and answer; a new question is emailed and joins the list', async () => {
    let listed = [answered];
    const sent = mockApi({
      'GET /lab-toolbox/sample/42/follow-ups': () => ({ body: listed }),
      'POST /lab-toolbox/sample-follow-up': (body) => {
        const asked = followUp(2, { question: (body as { question: string }).question });
        listed = [asked, answered];
        return { status: 201, body: asked };
      },
    });
    const user = userEvent.setup({ delay: null });
    renderPage(<AskPatientButton sampleId={42} barcode={BARCODE} />);
    expect(sent.filter((r) => r.path.includes('follow-ups'))).toHaveLength(0); // nothing read before the dialog opens

    await user.click(screen.getByRole('button', { name: `Ask the patient about sample ${BARCODE}` }));
    const dialog = await screen.findByRole('dialog', { name: `Questions to the patient about sample ${BARCODE}` });
    const table = await within(dialog).findByRole('table', { name: `Follow-ups of sample ${BARCODE}` });
    expect(within(table).getByText('Question: Was the tube sealed?')).toBeTruthy();
    expect(within(table).getByText('Answered')).toBeTruthy();
    expect(within(table).getByText('Other: Half sealed')).toBeTruthy();

    await user.type(within(dialog).getByRole('textbox', { name: 'Question' }), '  Did you rinse your mouth first?  ');
    await user.click(within(dialog).getByRole('button', { name: 'Email the question' }));
    await within(table).findByText('Question: Did you rinse your mouth first?');
    expect(sent.find((r) => r.method === 'POST')!.body).toEqual({ sampleId: 42, question: 'Did you rinse your mouth first?' });
    expect(within(table).getByText('Sent')).toBeTruthy();
    expect((within(dialog).getByRole('textbox', { name: 'Question' }) as HTMLTextAreaElement).value).toBe('');
  });

  it('a patient without an email address: Error submitting form, naming the sample and the server’s reason', async () => {
    const fieldMessage = `${NO_EMAIL_REASON}: the question cannot be emailed`;
    mockApi({
      'GET /lab-toolbox/sample/42/follow-ups': { body: [] },
      'POST /lab-toolbox/sample-follow-up': apiRefusal(409, 'conflict', NO_EMAIL_REASON, [{ field: 'sampleId', message: fieldMessage }]),
    });
    const user = userEvent.setup({ delay: null });
    renderPage(<AskPatientButton sampleId={42} barcode={BARCODE} />);
    await user.click(screen.getByRole('button', { name: `Ask the patient about sample ${BARCODE}` }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('Nothing has been asked about this sample yet.');
    await user.type(within(dialog).getByRole('textbox', { name: 'Question' }), 'Anything?');
    await user.click(within(dialog).getByRole('button', { name: 'Email the question' }));
    const alert = await within(dialog).findByRole('alert');
    expect(within(alert).getByText('Error submitting form')).toBeTruthy();
    expect(within(alert).getByText(`Sample ${BARCODE}: ${fieldMessage}`)).toBeTruthy();
    await waitFor(() => expect((within(dialog).getByRole('textbox', { name: 'Question' }) as HTMLTextAreaElement).value).toBe('Anything?'));
  });
});
