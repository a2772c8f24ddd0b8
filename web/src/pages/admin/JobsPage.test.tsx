import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { JobsPage } from './JobsPage';

const failed = { id: 901, name: 'send-email', status: 'Failed', progress: 0, attempts: 5, error: 'SMTP connection refused', createdAt: '2026-03-01T08:00:00Z', finishedAt: '2026-03-01T08:05:00Z' };

describe('JobsPage', () => {
  it('shows failed jobs with their error; retries one, and all failed after a confirmation', async () => {
    const user = userEvent.setup({ delay: null });
    const sent = mockApi({
      'GET /admin/jobs/summary': { body: { queue: { waiting: 0, active: 1, delayed: 0, failed: 2, completed: 40 }, rows: { Pending: 1, Completed: 40, Failed: 2 } } },
      'GET /admin/jobs': { body: [failed], headers: { 'x-total-count': '2' } },
      'POST /admin/jobs/901/retry': { body: { retried: 1 } },
      'POST /admin/jobs/retry-failed': { body: { retried: 2 } },
    });
    renderPage(<JobsPage />, { path: '/admin/provider/jobs', route: '/admin/provider/jobs' });

    const table = await screen.findByRole('table', { name: 'Jobs' });
    expect(sent.find((r) => r.path.startsWith('/admin/jobs?'))?.path).toBe('/admin/jobs?status=Failed&page=1&pageSize=10');
    expect(within(table).getByText('SMTP connection refused')).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Failed jobs: 2' })).toBeTruthy();

    await user.click(within(table).getByRole('button', { name: 'Retry job 901' }));
    expect(await screen.findByText('1 job was queued again.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Retry all failed (2)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Retry every failed job?' });
    await user.click(within(dialog).getByRole('button', { name: 'Retry all failed' }));
    expect(await screen.findByText('2 jobs were queued again.')).toBeTruthy();
    await waitFor(() => expect(sent.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/admin/jobs/901/retry', '/admin/jobs/retry-failed']));
  });
});

describe('JobsPage focus when a message or the dialog goes away', () => {
  const heading = () => screen.getByRole('heading', { level: 1, name: 'Job monitor' });
  /** The monitor with one failed job; after "retry all" the counts say none is left. */
  const renderJobs = () => {
    let failedLeft = 2;
    mockApi({
      'GET /admin/jobs/summary': () => ({ body: { queue: { waiting: 0, active: 0, delayed: 0, failed: failedLeft, completed: 40 }, rows: { Pending: 0, Completed: 40, Failed: failedLeft } } }),
      'GET /admin/jobs': { body: [failed], headers: { 'x-total-count': '1' } },
      'POST /admin/jobs/901/retry': { body: { retried: 1 } },
      'POST /admin/jobs/retry-failed': () => {
        failedLeft = 0;
        return { body: { retried: 2 } };
      },
    });
    renderPage(<JobsPage />, { path: '/admin/provider/jobs', route: '/admin/provider/jobs' });
  };

  it('dismissing the outcome of a retry from the keyboard gives the focus back to the Retry button pressed', async () => {
    const user = userEvent.setup({ delay: null });
    renderJobs();
    const retry = await screen.findByRole('button', { name: 'Retry job 901' });
    retry.focus();
    await user.keyboard('{Enter}');
    await screen.findByText('1 job was queued again.');
    screen.getByRole('button', { name: 'Dismiss' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByText('1 job was queued again.')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(retry));
  });

  it('cancelling "Retry all failed" gives the focus back to its button; confirming it (none left to retry) gives it to the page heading', async () => {
    const user = userEvent.setup({ delay: null });
    renderJobs();
    const retryAll = await screen.findByRole('button', { name: 'Retry all failed (2)' });
    retryAll.focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('dialog', { name: 'Retry every failed job?' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(retryAll));

    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Retry every failed job?' });
    await user.click(within(dialog).getByRole('button', { name: 'Retry all failed' }));
    await screen.findByText('2 jobs were queued again.');
    // Nothing failed is left: the button is disabled, so the heading takes the focus.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Retry all failed' }).hasAttribute('disabled')).toBe(true));
    await waitFor(() => expect(document.activeElement).toBe(heading()));
  });
});
