/**
 * One of the clinic's result lists (pending, completed, patient-ordered): a sortable, paginated
 * table on a tablet or desktop, a list of cards on a phone. Rows link to the patient's page.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Anchor, Button, Card, Center, Group, Loader, Stack, Table, Text, TextInput } from '@mantine/core';
import { Link } from 'react-router-dom';
import {
  DEFAULT_PAGE_SIZE, formatCalendarDate, listName, PATIENT_SEARCH_MAX_LENGTH, RESULT_SEARCH_MIN_LENGTH, RESULT_SEARCH_PATTERN, type ResultListCategory, type ResultListSortField,
} from '@platform/domain';
import { useResultList, type ResultListRow } from '../../api/clinic';
import { useResultSearch } from '../../api/worklists';
import { useViewport } from '../../layouts/use-viewport';
import { Pager } from '../../components/Pager';
import { SortHeader, type SortState } from '../../components/SortHeader';
import { StatusBadge } from '../../components/StatusBadge';
import { PhysicianFilter } from './PhysicianFilter';
import { formatDate } from '../../format';

export interface ResultListProps {
  accountId: number;
  category: ResultListCategory;
  defaultSort: SortState<ResultListSortField>;
  /** The date column: when ordered, or when resulted. */
  dateColumn: { field: 'orderedAt' | 'resultedAt'; label: string };
  /** Extra cells at the end of each row (downloads, emails). */
  actions?: (row: ResultListRow) => ReactNode;
  /** Said under a row's status (the Completed list: a result awaiting the clinic's review). */
  statusNote?: (row: ResultListRow) => ReactNode;
  emptyText: string;
}

export const patientPath = (accountId: number, patientId: number) => `/provider-clinic/${accountId}/patient/${patientId}`;

/** The list with its search and physician filter above it (a new search or filter starts again at page 1). */
export function ResultList(props: ResultListProps) {
  const [physicianId, setPhysicianId] = useState<number | null>(null);
  const [search, setSearch] = useState<string | null>(null);
  return (
    <Stack gap="sm">
      <Group align="flex-end" gap="md" wrap="wrap">
        <ResultSearch value={search} onSearch={setSearch} />
        <PhysicianFilter accountId={props.accountId} value={physicianId} onChange={setPhysicianId} />
      </Group>
      <ResultTable key={`${physicianId ?? 'all'}:${search ?? ''}`} {...props} physicianId={physicianId} search={search} />
    </Stack>
  );
}

/** What a search may be: checked here as the API checks it (RESULT_SEARCH_MIN_LENGTH, RESULT_SEARCH_PATTERN), so the field says why at once. */
function searchProblem(text: string): string | null {
  if (text.length < RESULT_SEARCH_MIN_LENGTH) return `Type at least ${RESULT_SEARCH_MIN_LENGTH} characters`;
  if (!RESULT_SEARCH_PATTERN.test(text)) return "Use letters, digits, spaces and . , ' - _ @ / only";
  return null;
}

/** The search box: a patient's name, a barcode or an order id, searched by the server when submitted. */
function ResultSearch({ value, onSearch }: { value: string | null; onSearch: (q: string | null) => void }) {
  const [text, setText] = useState(value ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const q = text.trim();
    if (!q) return onSearch(null);
    const why = searchProblem(q);
    setProblem(why);
    if (!why) onSearch(q);
  };
  const clear = () => {
    setText('');
    setProblem(null);
    onSearch(null);
  };
  return (
    <form role="search" aria-label="Search this list" onSubmit={submit}>
      <Group align="flex-start" gap="xs" wrap="nowrap">
        <TextInput
          label="Search"
          description="Patient name, barcode or order id"
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          error={problem}
          maxLength={PATIENT_SEARCH_MAX_LENGTH}
          w={{ base: '100%', xs: 280 }}
        />
        <Group gap="xs" mt={46} wrap="nowrap">
          <Button type="submit" variant="light">Search</Button>
          {value !== null && <Button variant="subtle" onClick={clear}>Clear</Button>}
        </Group>
      </Group>
    </form>
  );
}

function ResultTable({ accountId, category, defaultSort, dateColumn, actions, statusNote, emptyText, physicianId, search }: ResultListProps & { physicianId: number | null; search: string | null }) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const [sort, setSort] = useState(defaultSort);
  const params = { page, pageSize, sort: sort.sort, order: sort.order, physicianId };
  const listed = useResultList(accountId, category, params, search === null);
  const searched = useResultSearch(accountId, category, search, params);
  const { data, error, isLoading, isValidating } = search === null ? listed : searched;
  const phone = useViewport() === 'phone';

  const onSort = (next: SortState<ResultListSortField>) => {
    setSort(next);
    setPage(1);
  };

  if (isLoading && !data) {
    return (
      <Center py="xl" role="status" aria-label="Loading the list">
        <Loader />
      </Center>
    );
  }
  if (error && !data) {
    return (
      <Alert color="red" variant="light" title="The list could not be loaded">
        {error.message}
      </Alert>
    );
  }
  const rows = data?.rows ?? [];
  const total = data?.total ?? 0;
  const dateOf = (r: ResultListRow) => formatDate(r[dateColumn.field]);
  const pager = (
    <Pager
      page={page}
      pageSize={pageSize}
      total={total}
      onPage={setPage}
      onPageSize={(size) => {
        setPageSize(size);
        setPage(1);
      }}
    />
  );

  if (rows.length === 0) {
    return (
      <Card withBorder padding="lg">
        <Text c="dimmed">{search === null ? emptyText : `Nothing in this list matches “${search}”.`}</Text>
      </Card>
    );
  }

  // Said when the list is searched: how many match (the pager counts pages of them).
  const matches = search === null ? null : (
    <Text fz="sm" role="status">
      {total === 1 ? '1 test matches' : `${total} tests match`} “{search}”.
    </Text>
  );

  if (phone) {
    return (
      <Stack gap="sm" aria-busy={isValidating}>
        {matches}
        {rows.map((r) => (
          <Card key={r.sampleId} withBorder padding="md" component="article" aria-label={`Sample ${r.barcode}`}>
            <Stack gap={6}>
              <Group justify="space-between" gap="xs">
                <Anchor component={Link} to={patientPath(accountId, r.patient.id)} fw={600}>
                  {listName(r.patient)}
                </Anchor>
                <StatusBadge status={r.status} statusBeforeStorage={r.statusBeforeStorage} size="sm" />
              </Group>
              <Text fz="sm">
                Born {formatCalendarDate(r.patient.dateOfBirth)} · {r.tests.join(', ')}
              </Text>
              <Text fz="sm" c="dimmed" ff="monospace">
                {r.barcode}
              </Text>
              <Text fz="sm" c="dimmed">
                {dateColumn.label}: {dateOf(r)}
                {r.physician ? ` · ${r.physician.name}` : ''}
              </Text>
              {r.rejectionReason && (
                <Text fz="sm" c="red.9">
                  {r.rejectionReason}
                </Text>
              )}
              {statusNote?.(r)}
              {actions && <Group gap="xs">{actions(r)}</Group>}
            </Stack>
          </Card>
        ))}
        {pager}
      </Stack>
    );
  }

  return (
    <Stack gap="sm">
      {matches}
      <Card withBorder padding={0}>
        <Table.ScrollContainer minWidth={actions ? 980 : 820}>
          <Table striped highlightOnHover verticalSpacing="sm" aria-busy={isValidating}>
            <Table.Thead>
              <Table.Tr>
                <SortHeader field="barcode" state={sort} onChange={onSort}>
                  Barcode
                </SortHeader>
                <SortHeader field="patientName" state={sort} onChange={onSort}>
                  Patient
                </SortHeader>
                <Table.Th>Date of birth</Table.Th>
                <Table.Th>Test</Table.Th>
                <Table.Th>Physician</Table.Th>
                <SortHeader field="status" state={sort} onChange={onSort}>
                  Status
                </SortHeader>
                <SortHeader field={dateColumn.field} state={sort} onChange={onSort}>
                  {dateColumn.label}
                </SortHeader>
                {actions && <Table.Th>Actions</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.sampleId}>
                  <Table.Td ff="monospace">{r.barcode}</Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={patientPath(accountId, r.patient.id)}>
                      {listName(r.patient)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{formatCalendarDate(r.patient.dateOfBirth)}</Table.Td>
                  <Table.Td>{r.tests.join(', ')}</Table.Td>
                  <Table.Td>{r.physician?.name ?? '—'}</Table.Td>
                  <Table.Td>
                    <Stack gap={2}>
                      <StatusBadge status={r.status} statusBeforeStorage={r.statusBeforeStorage} size="sm" />
                      {r.rejectionReason && (
                        <Text fz="xs" c="red.9">
                          {r.rejectionReason}
                        </Text>
                      )}
                      {statusNote?.(r)}
                    </Stack>
                  </Table.Td>
                  <Table.Td>{dateOf(r)}</Table.Td>
                  {actions && (
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        {actions(r)}
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
      {pager}
    </Stack>
  );
}
