import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AccountRole, type CampaignProgress, type EmailLogRow } from '@platform/domain';
import { pickOption } from '../../test/fields';
import { apiRefusal, mockApi, type MockHandler } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { findToast, ToastHost } from '../../test/toasts';
import { EmailsPage } from './EmailsPage';

const resetEmail: EmailLogRow = {
  id: 31, toAddress: 'nora.quill@clinic.test', subject: 'Set your password', template: 'set-password', status: 'Sent', error: null,
  sentAt: '2026-03-02T10:00:00Z', createdAt: '2026-03-02T09:59:00Z', campaignId: null,
};
const failedEmail: EmailLogRow = { ...resetEmail, id: 32, subject: 'Your result is ready', template: 'result-ready', status: 'Failed', error: 'Connection refused', sentAt: null };

function renderEmails(route: string, routes: Record<string, MockHandler>) {
  const sent = mockApi({ 'GET /admin/email-campaigns': { body: [], headers: { 'x-total-count': '0' } }, 'GET /admin/accounts': { body: [] }, ...routes });
  renderPage(<><EmailsPage /><ToastHost /></>, { path: '/admin/provider/emails', route });
  return sent;
}

describe('EmailsPage', () => {
  it('lists the log with the status filter from the address; a refused resend shows the server\'s reason', async () => {
    const user = userEvent.setup({ delay: null });
    const sent = renderEmails('/admin/provider/emails?status=Failed', {
      'GET /admin/emails': { body: [failedEmail], headers: { 'x-total-count': '1' } },
      'POST /admin/emails/32/resend': apiRefusal(409, 'conflict', 'This email carried a single-use link: it cannot be resent'),
    });
    const table = await screen.findByRole('table', { name: 'Email log' });
    expect(sent.find((r) => r.path.startsWith('/admin/emails'))?.path).toBe('/admin/emails?status=Failed&page=1&pageSize=10');
    expect(within(table).getByText('Connection refused')).toBeTruthy();

    await user.click(within(table).getByRole('button', { name: /^Resend/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Resend this email?' });
    await user.click(within(dialog).getByRole('button', { name: 'Resend' }));
    expect(await within(dialog).findByText('This email carried a single-use link: it cannot be resent')).toBeTruthy();
  });

  it("closing the resend dialog (cancelled, or the email queued again) gives the focus back to the row's Resend button", async () => {
    const user = userEvent.setup({ delay: null });
    renderEmails('/admin/provider/emails', {
      'GET /admin/emails': { body: [failedEmail], headers: { 'x-total-count': '1' } },
      'POST /admin/emails/32/resend': { status: 201, body: { ...failedEmail, id: 33, status: 'Pending', error: null } },
    });
    const resend = await screen.findByRole('button', { name: /^Resend/ });
    await user.click(resend);
    await screen.findByRole('dialog', { name: 'Resend this email?' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(resend));

    await user.keyboard('{Enter}');
    await user.click(within(await screen.findByRole('dialog', { name: 'Resend this email?' })).getByRole('button', { name: 'Resend' }));
    await findToast('The email was queued again for nora.quill@clinic.test');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(resend));
  });

  it('previews a bulk email, sends it and follows its progress to the recipients', async () => {
    const user = userEvent.setup({ delay: null });
    const progress: CampaignProgress = {
      id: 5, campaign: 'portal-feedback-request', recipientCount: 2, queued: 2, sent: 0, failed: 0, jobId: 70, jobStatus: 'Pending', createdAt: '2026-03-03T12:00:00Z',
    };
    let polls = 0;
    const sent = renderEmails('/admin/provider/emails?tab=bulk', {
      'POST /admin/send-email/portal-feedback-request': (body) =>
        (body as { preview: boolean }).preview
          ? {
              body: {
                campaign: 'portal-feedback-request', recipientCount: 2, subject: 'How is the portal working for you?', text: 'Dear colleague,\nTell us.',
                sampleRecipients: [{ name: 'Paula Grant', email: 'physician@demo.test' }, { name: 'Omar Reyes', email: 'omar@demo.test' }],
              },
            }
          : { status: 202, body: progress },
      // Sending on the first poll, done on the next.
      'GET /admin/email-campaigns/5': () => {
        polls += 1;
        return { body: polls < 2 ? { ...progress, queued: 1, sent: 1 } : { ...progress, queued: 0, sent: 1, failed: 1, jobStatus: 'Completed' } };
      },
      'GET /admin/email-campaigns/5/recipients': {
        body: [
          { contactId: 1, name: 'Paula Grant', toAddress: 'physician@demo.test', emailId: 40, status: 'Sent', sentAt: '2026-03-03T12:00:05Z' },
          { contactId: 2, name: 'Omar Reyes', toAddress: 'omar@demo.test', emailId: 41, status: 'Failed', sentAt: null },
        ],
        headers: { 'x-total-count': '2' },
      },
    });

    await user.click(await screen.findByRole('radio', { name: 'Portal feedback request' }));
    await pickOption(user, screen.getByRole('combobox', { name: /^Roles/ }), AccountRole.Physician);
    await user.click(screen.getByRole('checkbox', { name: 'Only people who never signed in' }));
    await user.click(screen.getByRole('button', { name: 'Preview' }));

    const preview = await screen.findByRole('region', { name: 'Preview' });
    expect(within(preview).getByText('2 recipients')).toBeTruthy();
    expect(within(preview).getByText('Paula Grant <physician@demo.test>')).toBeTruthy();
    expect(within(preview).getByText('How is the portal working for you?')).toBeTruthy();
    await user.click(within(preview).getByRole('button', { name: 'Send to 2 recipients' }));

    expect(sent.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
      { audience: { accountIds: [], roles: [AccountRole.Physician], neverSignedIn: true }, preview: true },
      { audience: { accountIds: [], roles: [AccountRole.Physician], neverSignedIn: true }, preview: false },
    ]);
    await findToast('Portal feedback request: sending to 2 people');
    expect(await screen.findByText('1 sent · 0 failed · 1 queued of 2')).toBeTruthy();
    // Polled until every recipient is sent or failed; then who got what.
    expect(await screen.findByText('1 sent · 1 failed · 0 queued of 2')).toBeTruthy();
    const recipients = await screen.findByRole('table', { name: 'Recipients' });
    expect(within(recipients).getByText('omar@demo.test')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('Finished')).toBeTruthy());
  });
});
