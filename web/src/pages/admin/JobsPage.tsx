import { useState } from 'react';
import { Badge, Button, Card, Group, SegmentedControl, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router-dom';
import { DEFAULT_PAGE_SIZE, formatCount, JOB_STATUSES, JobStatus, type JobRow } from '@platform/domain';
import { retryFailedJobs, retryJob, useJobs, useJobSummary, useRefreshAdmin } from '../../api/admin';
import { Notice } from '../../components/Notice';
import { Pager } from '../../components/Pager';
import { useCommand } from '../../forms/use-form-submit';
import { useFocusBack } from '../../shell/focus-back';
import { AA_COLORS } from '../../status-colors';
import { AdminPageFrame } from './AdminPageFrame';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { onCommandError } from './errors';
import { commandError } from '../../forms/server-errors';
import { QueryState, queryFlags } from './QueryState';
import { RecordTable } from '../../components/RecordTable';
import { formatDateTime } from '../../format';

const JOB_COLORS: Record<JobStatus, string> = { Pending: AA_COLORS.blue, Completed: AA_COLORS.green, Failed: AA_COLORS.red };
const QUEUE_LABELS = { waiting: 'Waiting', active: 'Active', delayed: 'Delayed', failed: 'Failed', completed: 'Completed' } as const;

type Filter = JobStatus | 'all';

/** /admin/provider/jobs: the background work (emails, PDFs, imports, notifications): how many of each, the failed ones and why, retry. */
export function JobsPage() {
  const [params, setParams] = useSearchParams();
  const status: Filter = (JOB_STATUSES as string[]).includes(params.get('status') ?? '') ? (params.get('status') as JobStatus) : params.get('status') === 'all' ? 'all' : JobStatus.Failed;
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const [message, setMessage] = useState<{ color: 'green' | 'red'; text: string } | null>(null);
  const [confirmingAll, setConfirmingAll] = useState(false);
  // The message's close button and the dialog take the focused control with them: back to the
  // button pressed (a row's Retry, "Retry all failed"), or the page's heading once that is gone.
  const focusBack = useFocusBack();
  const summary = useJobSummary();
  const jobs = useJobs({ status: status === 'all' ? null : status, page, pageSize });
  const refresh = useRefreshAdmin();
  const failedCount = summary.data?.rows.Failed ?? 0;

  const retryOne = useCommand('admin:job-retry', (job: JobRow) => retryJob(job.id));
  const retryAll = useCommand('admin:job-retry-all', () => retryFailedJobs());
  const [retrying, setRetrying] = useState<number | null>(null);

  const afterRetry = (retried: number) => {
    setMessage({ color: 'green', text: retried === 1 ? '1 job was queued again.' : `${formatCount(retried)} jobs were queued again.` });
    void refresh();
  };

  const onRetry = async (job: JobRow) => {
    setMessage(null);
    setRetrying(job.id);
    try {
      afterRetry((await retryOne.trigger(job)).retried);
    } catch (error) {
      onCommandError(error);
      setMessage({ color: 'red', text: `Job ${job.id} was not retried: ${commandError(error)}` });
    } finally {
      setRetrying(null);
    }
  };

  const closeConfirm = focusBack.after(() => setConfirmingAll(false));
  const onRetryAll = async () => {
    setMessage(null);
    try {
      afterRetry((await retryAll.trigger()).retried);
      closeConfirm();
    } catch (error) {
      onCommandError(error);
    }
  };

  const rows = jobs.data?.rows ?? [];
  return (
    <AdminPageFrame
      title="Job monitor"
      subtitle="Background work: emails, PDFs, result notifications, imports and bulk emails. A job is Failed only after its last attempt."
      actions={
        <Button color={AA_COLORS.red} variant="outline" onClick={(e) => { focusBack.remember(e.currentTarget); retryAll.reset(); setConfirmingAll(true); }} disabled={failedCount === 0}>
          Retry all failed{failedCount ? ` (${formatCount(failedCount)})` : ''}
        </Button>
      }
    >
      <Stack gap="sm" component="section" aria-labelledby="job-counts">
        <Title order={2} fz="lg" id="job-counts">
          Counts
        </Title>
        <QueryState what="job counts" {...queryFlags(summary, () => false)} emptyText="" onRetry={() => void summary.mutate()}>
          {summary.data && (
            <SimpleGrid cols={{ base: 2, sm: 4, md: 8 }} spacing="sm">
              {JOB_STATUSES.map((s) => (
                <Count key={s} label={`${s} jobs`} value={summary.data!.rows[s] ?? 0} color={JOB_COLORS[s]} />
              ))}
              {(Object.keys(QUEUE_LABELS) as (keyof typeof QUEUE_LABELS)[]).map((k) => (
                <Count key={k} label={`Queue: ${QUEUE_LABELS[k].toLowerCase()}`} value={summary.data!.queue[k]} />
              ))}
            </SimpleGrid>
          )}
        </QueryState>
      </Stack>

      {message && <Notice color={message.color} onClose={focusBack.after(() => setMessage(null))}>{message.text}</Notice>}

      <Stack gap="sm" component="section" aria-labelledby="job-list">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} fz="lg" id="job-list">
            Jobs
          </Title>
          <SegmentedControl
            aria-label="Which jobs"
            value={status}
            onChange={(v) => {
              setParams(v === JobStatus.Failed ? {} : { status: v }, { replace: true });
              setPage(1);
            }}
            data={[...JOB_STATUSES.map((s) => ({ value: s, label: s })), { value: 'all', label: 'All' }]}
          />
        </Group>
        <QueryState
          what="jobs"
          {...queryFlags(jobs, (d) => d.rows.length === 0)}
          emptyText={status === JobStatus.Failed ? 'No failed jobs.' : 'No jobs here.'}
          onRetry={() => void jobs.mutate()}
        >
          <RecordTable minWidth={860} label="Jobs" columns={['Job', 'Status', 'Attempts', 'Error', 'Created', 'Finished']} withActions>
            {rows.map((job) => (
              <Table.Tr key={job.id}>
                <Table.Td>
                  <Text fw={600} fz="sm">
                    {job.name}
                  </Text>
                  <Text fz="xs" c="dimmed">
                    #{job.id}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge color={JOB_COLORS[job.status]}>{job.status}</Badge>
                  {job.status === JobStatus.Pending && job.progress > 0 && <Text fz="xs">{job.progress}%</Text>}
                </Table.Td>
                <Table.Td>{job.attempts}</Table.Td>
                <Table.Td maw={360}>
                  <Text fz="sm" c={job.error ? 'red.9' : 'dimmed'} style={{ wordBreak: 'break-word' }}>
                    {job.error ?? '—'}
                  </Text>
                </Table.Td>
                <Table.Td fz="sm">{formatDateTime(job.createdAt)}</Table.Td>
                <Table.Td fz="sm">{job.finishedAt ? formatDateTime(job.finishedAt) : '—'}</Table.Td>
                <Table.Td>
                  {job.status === JobStatus.Failed && (
                    <Button size="xs" variant="outline" onClick={(e) => { focusBack.remember(e.currentTarget); void onRetry(job); }} loading={retrying === job.id} disabled={retrying !== null && retrying !== job.id} aria-label={`Retry job ${job.id}`}>
                      Retry
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </RecordTable>
          <Pager page={page} pageSize={pageSize} total={jobs.data?.total ?? 0} onPage={setPage} onPageSize={(n) => { setPageSize(n); setPage(1); }} noun="jobs" />
        </QueryState>
      </Stack>

      {confirmingAll && (
        <ConfirmDialog
          title="Retry every failed job?"
          confirmLabel="Retry all failed"
          onConfirm={() => void onRetryAll()}
          onClose={closeConfirm}
          busy={retryAll.isMutating}
          error={retryAll.error === undefined ? undefined : commandError(retryAll.error)}
          errorTitle="The jobs were not retried"
          danger={false}
        >
          {`${formatCount(failedCount)} failed ${failedCount === 1 ? 'job goes' : 'jobs go'} back on the queue. Work already done is not done twice (each job checks first).`}
        </ConfirmDialog>
      )}
    </AdminPageFrame>
  );
}

function Count({ label, value, color }: { label: string; value: number; color?: string }) {
  return (
    <Card withBorder padding="sm" aria-label={`${label}: ${value}`} role="group">
      <Text fz="xs" c="dimmed">
        {label}
      </Text>
      <Text fz="xl" fw={700} c={color}>
        {formatCount(value)}
      </Text>
    </Card>
  );
}
