import { useState } from 'react';
import { Anchor, Badge, Button, Card, Center, Group, Loader, SegmentedControl, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { Link } from 'react-router-dom';
import { DEFAULT_PAGE_SIZE, SAMPLE_STATUSES, SampleStatus, type ResearchTestSortField } from '@platform/domain';
import { useRefreshResearch, useResearchTests, useStudyResponses, shipResearchKits, type ResearchTestRow } from '../../api/research';
import { Pager } from '../../components/Pager';
import { ReportButton } from '../../components/ReportButton';
import { SortHeader, type SortState } from '../../components/SortHeader';
import { StatusBadge } from '../../components/StatusBadge';
import { useCommand } from '../../forms/use-form-submit';
import { useViewport } from '../../layouts/use-viewport';
import { reportError } from '../../shell/report-error';
import { participantPath, ResearchPageFrame } from './ResearchPageFrame';
import { formatDate } from '../../format';

type View = 'samples' | 'responses';

/**
 * /provider-research/{accountId}/tests: the account's research samples (status, participant,
 * study, dates), filtered, sorted and paged; and, as a second view, the participants' study
 * responses, incomplete first. Results are the research provider's: the report downloads here.
 */
export function ResearchTestsPage() {
  const [view, setView] = useState<View>('samples');
  return (
    <ResearchPageFrame title="Research tests">
      {(account) => (
        <Stack gap="md">
          <SegmentedControl
            aria-label="What to list"
            value={view}
            onChange={(v) => setView(v as View)}
            data={[{ value: 'samples', label: 'Samples' }, { value: 'responses', label: 'Study responses' }]}
            w={{ base: '100%', xs: 'auto' }}
            style={{ alignSelf: 'flex-start' }}
          />
          {view === 'samples' ? <SampleList accountId={account.id} /> : <ResponseList accountId={account.id} />}
        </Stack>
      )}
    </ResearchPageFrame>
  );
}

function SampleList({ accountId }: { accountId: number }) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const [sort, setSort] = useState<SortState<ResearchTestSortField>>({ sort: 'orderedAt', order: 'desc' });
  const [status, setStatus] = useState<string | null>(null);
  const [q, setQ] = useState('');
  const { data, isLoading } = useResearchTests(accountId, { page, pageSize, sort: sort.sort, order: sort.order, status: status ?? undefined, q: q.trim() || undefined });
  const phone = useViewport() === 'phone';
  const refresh = useRefreshResearch(accountId);
  const shipping = useCommand('research-ship', (sampleId: number) => shipResearchKits(accountId, [sampleId]));
  const ship = (row: ResearchTestRow) =>
    shipping.trigger(row.sampleId).then(() => refresh()).catch((error: unknown) => reportError(error, 'Error submitting form'));
  const onSort = (next: SortState<ResearchTestSortField>) => {
    setSort(next);
    setPage(1);
  };
  const rows = data?.rows ?? [];
  const actions = (r: ResearchTestRow) => (
    <Group gap="xs" wrap="nowrap">
      {r.status === SampleStatus.OrderPlaced && (
        <Button size="xs" variant="light" onClick={() => void ship(r)} loading={shipping.isMutating} aria-label={`Ship kit ${r.barcode}`}>Ship kit</Button>
      )}
      {r.reportAvailable && <ReportButton sampleId={r.sampleId} barcode={r.barcode} size="xs" variant="light" />}
    </Group>
  );
  return (
    <Stack gap="sm">
      <Group gap="sm" wrap="wrap" align="flex-end">
        <TextInput label="Study ID or barcode" value={q} onChange={(e) => { setQ(e.currentTarget.value); setPage(1); }} w={{ base: '100%', xs: 240 }} />
        <Select label="Status" data={SAMPLE_STATUSES} value={status} onChange={(v) => { setStatus(v); setPage(1); }} clearable placeholder="Any status" w={{ base: '100%', xs: 200 }} />
      </Group>
      {isLoading && !data ? (
        <Center py="xl" role="status" aria-label="Loading the list"><Loader /></Center>
      ) : rows.length === 0 ? (
        <Card withBorder padding="lg"><Text c="dimmed">No research tests match. Orders you place appear here.</Text></Card>
      ) : phone ? (
        <Stack gap="sm">
          {rows.map((r) => (
            <Card key={r.sampleId} withBorder padding="md" component="article" aria-label={`Sample ${r.barcode}`}>
              <Stack gap={6}>
                <Group justify="space-between" gap="xs">
                  <Anchor component={Link} to={participantPath(accountId, r.participant.id)} fw={600}>Study ID {r.participant.studyId}</Anchor>
                  <StatusBadge status={r.status} statusBeforeStorage={r.statusBeforeStorage} size="sm" />
                </Group>
                <Text fz="sm">{r.tests.join(', ')} · {r.project?.name ?? '—'}</Text>
                <Text fz="sm" c="dimmed" ff="monospace">{r.barcode}</Text>
                <Text fz="sm" c="dimmed">Ordered {formatDate(r.orderedAt)}{r.resultedAt ? ` · resulted ${formatDate(r.resultedAt)}` : ''}</Text>
                {actions(r)}
              </Stack>
            </Card>
          ))}
        </Stack>
      ) : (
        <Card withBorder padding={0}>
          <Table.ScrollContainer minWidth={900}>
            <Table striped highlightOnHover verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <SortHeader field="studyId" state={sort} onChange={onSort}>Participant</SortHeader>
                  <SortHeader field="barcode" state={sort} onChange={onSort}>Barcode</SortHeader>
                  <Table.Th>Tests</Table.Th>
                  <SortHeader field="project" state={sort} onChange={onSort}>Study</SortHeader>
                  <SortHeader field="status" state={sort} onChange={onSort}>Status</SortHeader>
                  <SortHeader field="orderedAt" state={sort} onChange={onSort}>Ordered</SortHeader>
                  <SortHeader field="resultedAt" state={sort} onChange={onSort}>Resulted</SortHeader>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={r.sampleId}>
                    <Table.Td><Anchor component={Link} to={participantPath(accountId, r.participant.id)}>Study ID {r.participant.studyId}</Anchor></Table.Td>
                    <Table.Td ff="monospace">{r.barcode}</Table.Td>
                    <Table.Td>{r.tests.join(', ')}</Table.Td>
                    <Table.Td>{r.project?.name ?? '—'}</Table.Td>
                    <Table.Td>
                      <Stack gap={2}>
                        <StatusBadge status={r.status} statusBeforeStorage={r.statusBeforeStorage} size="sm" />
                        {r.rejectionReason && <Text fz="xs" c="red.9">{r.rejectionReason}</Text>}
                      </Stack>
                    </Table.Td>
                    <Table.Td>{formatDate(r.orderedAt)}</Table.Td>
                    <Table.Td>{formatDate(r.resultedAt)}</Table.Td>
                    <Table.Td>{actions(r)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
      <Pager page={page} pageSize={pageSize} total={data?.total ?? 0} onPage={setPage} onPageSize={(s) => { setPageSize(s); setPage(1); }} />
    </Stack>
  );
}

/** The participants' study responses, incomplete first; each links to the participant, where the response is filled. */
export function ResponseList({ accountId }: { accountId: number }) {
  const [page, setPage] = useState(1);
  const [onlyIncomplete, setOnlyIncomplete] = useState(true);
  const { data, incomplete, isLoading } = useStudyResponses('research', accountId, { page, pageSize: DEFAULT_PAGE_SIZE, incomplete: onlyIncomplete ? true : undefined });
  const rows = data?.rows ?? [];
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <Text aria-live="polite">{incomplete === undefined ? '' : `${incomplete} ${incomplete === 1 ? 'participant has' : 'participants have'} an incomplete study response`}</Text>
        <SegmentedControl aria-label="Which responses" value={onlyIncomplete ? 'incomplete' : 'all'} onChange={(v) => { setOnlyIncomplete(v === 'incomplete'); setPage(1); }}
          data={[{ value: 'incomplete', label: 'Incomplete' }, { value: 'all', label: 'All' }]} />
      </Group>
      {isLoading && !data ? (
        <Center py="xl" role="status" aria-label="Loading study responses"><Loader /></Center>
      ) : rows.length === 0 ? (
        <Card withBorder padding="lg"><Text c="dimmed">{onlyIncomplete ? 'Every study response is complete.' : 'No study responses yet.'}</Text></Card>
      ) : (
        <Stack gap="xs">
          {rows.map((r) => (
            <Card key={r.id} withBorder padding="sm" component="article" aria-label={`Study response of ${r.participant.name}`}>
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Stack gap={2}>
                  <Anchor component={Link} to={participantPath(accountId, r.participant.id)} fw={600}>{r.participant.name}</Anchor>
                  <Text fz="sm" c="dimmed">{r.project.name} · updated {formatDate(r.updatedAt)}{r.updatedBy ? ` by ${r.updatedBy}` : ''}</Text>
                </Stack>
                <Badge color={r.complete ? 'green' : 'orange'} variant="light">{r.complete ? 'Complete' : `${r.missing.length} missing`}</Badge>
              </Group>
            </Card>
          ))}
        </Stack>
      )}
      <Pager page={page} pageSize={DEFAULT_PAGE_SIZE} total={data?.total ?? 0} onPage={setPage} noun="responses" />
    </Stack>
  );
}
