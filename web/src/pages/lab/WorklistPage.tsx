/**
 * /lab_toolbox/worklist: the samples waiting for the lab (In Queue, In Testing, or stored from one
 * of them), one row per test, oldest receipt first, those past their test's turnaround target
 * marked. Above it, each test with how many wait and how many are past target; choosing a test (or a
 * status) filters the list, and the choice is kept in the URL (a view can be linked and reloaded).
 */
import { useState } from 'react';
import { Alert, Badge, Button, Card, Group, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { useSearchParams } from 'react-router-dom';
import { DEFAULT_PAGE_SIZE, describeHours, WORKLIST_STATUSES, type WorklistStatus } from '@platform/domain';
import { useLabWorklist, useLabWorklistTests, type LabWorklistRow, type WorklistTestCount } from '../../api/worklists';
import { Pager } from '../../components/Pager';
import { PageLoader } from '../../components/PageLoader';
import { AA_COLORS } from '../../status-colors';
import { LabPageFrame } from './LabPageFrame';
import { formatDateTime } from '../../format';

const ALL = 'all';

/** The page's filters, read from and written to its URL (?test=…&status=…); a new filter starts at page 1. */
function useWorklistFilters() {
  const [params, setParams] = useSearchParams();
  const status = params.get('status');
  const filters = {
    test: params.get('test') || null,
    status: WORKLIST_STATUSES.includes(status as WorklistStatus) ? (status as WorklistStatus) : null,
  };
  const setFilter = (key: 'test' | 'status', value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };
  return { filters, setFilter };
}

export function WorklistPage() {
  const { filters, setFilter } = useWorklistFilters();
  const tests = useLabWorklistTests();
  return (
    <LabPageFrame title="Worklist" subtitle="Samples In Queue and In Testing, oldest receipt first; those waiting longer than their test's turnaround target are marked.">
      <Stack gap="lg">
        {/* Without its counts (a failed read says so in the error modal) the list below still works. */}
        {!tests.error && <TestCounts counts={tests.data} chosen={filters.test} onChoose={(test) => setFilter('test', test)} />}
        <SegmentedControl
          aria-label="Which status"
          value={filters.status ?? ALL}
          onChange={(v) => setFilter('status', v === ALL ? null : v)}
          data={[{ value: ALL, label: 'In Queue and In Testing' }, ...WORKLIST_STATUSES.map((s) => ({ value: s, label: s }))]}
          style={{ alignSelf: 'flex-start' }}
        />
        <WorklistTable key={`${filters.test ?? ALL}:${filters.status ?? ALL}`} test={filters.test} status={filters.status} />
      </Stack>
    </LabPageFrame>
  );
}

/** Each test with samples waiting: its target, how many wait, how many are past target; a button shows only that test. */
function TestCounts({ counts, chosen, onChoose }: { counts: WorklistTestCount[] | undefined; chosen: string | null; onChoose: (test: string | null) => void }) {
  if (!counts) return <PageLoader label="Loading the tests waiting" />;
  if (counts.length === 0) return null;
  return (
    <Card withBorder padding={0}>
      <Table.ScrollContainer minWidth={560}>
        <Table aria-label="Samples waiting by test" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Test</Table.Th>
              <Table.Th ta="right">Target (receipt to result)</Table.Th>
              <Table.Th ta="right">Waiting</Table.Th>
              <Table.Th ta="right">Past target</Table.Th>
              <Table.Th>
                {chosen && (
                  <Button size="compact-xs" variant="subtle" onClick={() => onChoose(null)}>
                    Show every test
                  </Button>
                )}
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {counts.map((c) => (
              <Table.Tr key={c.testName} aria-current={c.testName === chosen ? 'true' : undefined}>
                <Table.Td fw={c.testName === chosen ? 700 : undefined}>{c.testName}</Table.Td>
                <Table.Td ta="right">{c.targetHours === null ? 'None set' : describeHours(c.targetHours)}</Table.Td>
                <Table.Td ta="right">{c.open}</Table.Td>
                <Table.Td ta="right" fw={c.openPastTarget ? 700 : undefined}>{c.openPastTarget}</Table.Td>
                <Table.Td>
                  {c.testName !== chosen && (
                    <Button size="compact-xs" variant="light" onClick={() => onChoose(c.testName)} aria-label={`Show only ${c.testName}`}>
                      Show only
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

/** "Past target" in words (not colour alone), or nothing. */
function PastTargetMark({ row }: { row: LabWorklistRow }) {
  if (!row.pastTarget) return null;
  return (
    <Badge color={AA_COLORS.red} variant="filled" size="sm" radius="sm">
      Past target
    </Badge>
  );
}

function WorklistTable({ test, status }: { test: string | null; status: WorklistStatus | null }) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const { data, error, isValidating } = useLabWorklist({ page, pageSize, test, status });
  if (error && !data) {
    return (
      <Alert color="red" variant="light" title="The worklist could not be loaded">
        {error.message}
      </Alert>
    );
  }
  if (!data) return <PageLoader label="Loading the worklist" />;
  if (data.rows.length === 0) {
    return (
      <Card withBorder padding="lg">
        <Text c="dimmed">{test || status ? 'No sample waits here.' : 'No sample is waiting: every sample received has its result or was rejected.'}</Text>
      </Card>
    );
  }
  return (
    <Stack gap="sm">
      <Card withBorder padding={0}>
        <Table.ScrollContainer minWidth={980}>
          <Table aria-label="Worklist" striped verticalSpacing="sm" aria-busy={isValidating}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Barcode</Table.Th>
                <Table.Th>Test</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Patient</Table.Th>
                <Table.Th>Clinic</Table.Th>
                <Table.Th>Received</Table.Th>
                <Table.Th ta="right">Waiting</Table.Th>
                <Table.Th ta="right">Target</Table.Th>
                <Table.Th>Turnaround</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.rows.map((r) => (
                <Table.Tr key={`${r.sampleId}:${r.testName}`}>
                  <Table.Td ff="monospace">{r.barcode}</Table.Td>
                  <Table.Td>{r.testName}</Table.Td>
                  <Table.Td>{r.status}</Table.Td>
                  <Table.Td>{r.patient}</Table.Td>
                  <Table.Td>{r.accountName ?? '—'}</Table.Td>
                  <Table.Td>{formatDateTime(r.receivedAt)}</Table.Td>
                  <Table.Td ta="right">{describeHours(r.hoursSinceReceipt)}</Table.Td>
                  <Table.Td ta="right">{r.targetHours === null ? 'None set' : describeHours(r.targetHours)}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      <PastTargetMark row={r} />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
      <Pager
        page={page}
        pageSize={pageSize}
        total={data.total}
        noun="tests waiting"
        onPage={setPage}
        onPageSize={(size) => {
          setPageSize(size);
          setPage(1);
        }}
      />
    </Stack>
  );
}
