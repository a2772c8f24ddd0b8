import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FOLLOW_UP_LINK_MESSAGES } from '@platform/domain';
import { apiRefusal, mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { SampleFollowUpResponsePage } from './SampleFollowUpResponsePage';

const TOKEN = 'cd'.repeat(32);
const view = { firstName: 'Ana', question: 'Was the swab collected on 10/02?', askedBy: 'clinic', clinicName: 'Riverside Oncology', barcode: '41000000000007' };

const renderResponse = () =>
  renderPage(<SampleFollowUpResponsePage />, {
    path: '/patient-portal/sample-follow-up/:followUpId/response',
    route: `/patient-portal/sample-follow-up/12/response?token=${TOKEN}`,
  });

describe('SampleFollowUpResponsePage', () => {
  it('shows who asks and the question; Other needs a comment; the answer is sent once', async () => {
    const sent = mockApi({
      [`GET /sample-follow-up/12?token=${TOKEN}`]: { body: view },
      'POST /sample-follow-up/12/response': { status: 201, body: { answeredAt: '2026-11-23T10:00:00.000Z' } },
    });
    const user = userEvent.setup();
    renderResponse();
    expect(await screen.findByText('Was the swab collected on 10/02?')).toBeTruthy();
    expect(screen.getByText(/Your clinic, Riverside Oncology, has a question/)).toBeTruthy();
    await user.click(screen.getByRole('radio', { name: 'Other' }));
    await user.click(screen.getByRole('button', { name: 'Send my answer' }));
    expect(await screen.findByText('Please say what "Other" means')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Please say what “Other” means' }), 'The day before');
    await user.click(screen.getByRole('button', { name: 'Send my answer' }));
    expect(await screen.findByRole('heading', { name: 'Thank you' })).toBeTruthy();
    expect(sent.find((r) => r.method === 'POST')!.body).toEqual({ token: TOKEN, answer: 'Other', comment: 'The day before' });
  });

  it('a used link says so', async () => {
    mockApi({ [`GET /sample-follow-up/12?token=${TOKEN}`]: apiRefusal(409, 'link_used', FOLLOW_UP_LINK_MESSAGES.answered) });
    renderResponse();
    expect(await screen.findByText(FOLLOW_UP_LINK_MESSAGES.answered)).toBeTruthy();
  });
});
