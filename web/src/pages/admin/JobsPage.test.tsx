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
