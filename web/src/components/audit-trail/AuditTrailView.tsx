/**
 * The audit trail (issue 29): filters (patient by id or name, sample barcode, user email, action,
 * from/to dates) kept in the page's address so a sample's page can link to its trail; the events,
 * newest first, each with who, when, from where, what, and the old and new values; older and newer
 * pages; the filtered trail as CSV (a download link) and as a PDF (made by the worker, then a
 * download link); for the lab's admin, "Verify the trail". Used by the admin's page and by an
 * account's Super Admin's page (the server keeps each to its own events).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Anchor, Badge, Button, Group, List, Loader, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { auditValueText, NO_AUDIT_FILTERS, type AuditEventView, type AuditTrailFilters } from '@platform/domain';
import {
  auditCsvHref, getAuditExport, requestAuditPdf, searchAuditPatients, useAuditTrail, verifyAuditTrail,
  type AuditExportView, type AuditPatientOption, type AuditVerificationView,
} from '../../api/audit-trail';
import { API_PREFIX, ApiError } from '../../api/fetcher';
import { Notice } from '../Notice';
import { RecordTable } from '../RecordTable';
import { reportError } from '../../shell/report-error';
import { formatDateTime } from '../../format';

const FILTER_KEYS = ['patientId', 'barcode', 'user', 'action', 'from', 'to'] as const;

/** The filters in the address (dates as YYYY-MM-DD). */
function filtersOf(params: URLSearchParams): Record<(typeof FILTER_KEYS)[number], string> {
  return Object.fromEntries(FILTER_KEYS.map((k) => [k, params.get(k) ?? ''])) as Record<(typeof FILTER_KEYS)[number], string>;
}

/** A day's start in the browser's zone as an ISO instant (`to` takes the next day's start: the whole day is in). */
const dayStart = (day: string, plusDays = 0) => {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y, m - 1, d + plusDays).toISOString();
};

/** What the API is asked: the address's filters, dates as instants. */
export function apiFilters(f: Record<(typeof FILTER_KEYS)[number], string>): AuditTrailFilters {
  return {
    ...NO_AUDIT_FILTERS,
    patientId: /^\d+$/.test(f.patientId) ? Number(f.patientId) : null,
    barcode: f.barcode.trim() || null,
    user: f.user.trim() || null,
    action: f.action.trim() || null,
    from: /^\d{4}-\d{2}-\d{2}$/.test(f.from) ? dayStart(f.from) : null,
    to: /^\d{4}-\d{2}-\d{2}$/.test(f.to) ? dayStart(f.to, 1) : null,
  };
}

export function AuditTrailView({ base, canVerify }: { base: string; canVerify: boolean }) {
  const [params, setParams] = useSearchParams();
  const applied = filtersOf(params);
  const filters = apiFilters(applied);
  // The ids the pages before this one started below (null: the newest page).
  const [cursors, setCursors] = useState<(number | null)[]>([null]);
  const before = cursors[cursors.length - 1];
  const key = JSON.stringify(applied);
  useEffect(() => setCursors([null]), [key]);
  const { data, error, isLoading } = useAuditTrail(base, filters, before);

  return (
    <Stack gap="lg">
      <FilterForm key={key} base={base} initial={applied} onApply={(next) => setParams(Object.fromEntries(Object.entries(next).filter(([, v]) => v)), { replace: false })} />
      <Exports base={base} filters={filters} />
      {canVerify && <VerifyTrail base={base} />}
      {error instanceof ApiError && [400, 404].includes(error.status) ? (
        <Notice color="red" title="Nothing to show for these filters">
          {error.serverMessage}
        </Notice>
      ) : isLoading || !data ? (
        <Text c="dimmed">Loading the audit trail…</Text>
      ) : (
        <>
          <ArchivedMonths months={data.archivedMonths} from={filters.from} />
          <Events events={data.events} />
          <Group gap="sm">
            <Button variant="default" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
              Newer events
            </Button>
            <Button variant="default" disabled={data.nextBefore === null} onClick={() => setCursors([...cursors, data.nextBefore])}>
              Older events
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}

/** The first instant after the archived months (they run from the oldest month on, with no gap: each archive takes every month before its cut). */
const keptFrom = (months: string[]) => {
  const [y, m] = months[months.length - 1].split('-').map(Number);
  return new Date(Date.UTC(y, m, 1)).toISOString();
};

/** Which months are archived, when the filters reach back into them (no "from", or one before the months kept). */
function ArchivedMonths({ months, from }: { months: string[]; from: string | null }) {
  if (!months.length) return null;
  const kept = keptFrom(months);
  if (from !== null && from >= kept) return null;
  const span = months.length === 1 ? months[0] : `${months[0]} to ${months[months.length - 1]}`;
  return (
    <Notice color="blue" title={`Events before ${kept.slice(0, 7)} are archived`}>
      The months {span} (UTC) were archived to files the lab keeps, so none of their events shows here or in an export. To read an archived month, ask the
      lab&apos;s security officer to restore its file.
    </Notice>
  );
}

function FilterForm({ base, initial, onApply }: { base: string; initial: Record<(typeof FILTER_KEYS)[number], string>; onApply: (f: Record<string, string>) => void }) {
  const [values, setValues] = useState(initial);
  const [patientQuery, setPatientQuery] = useState('');
  const [matches, setMatches] = useState<AuditPatientOption[] | null>(null);
  const set = (k: (typeof FILTER_KEYS)[number]) => (e: { currentTarget: { value: string } }) => setValues({ ...values, [k]: e.currentTarget.value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply(values);
  };
  const findPatient = async () => {
    const q = patientQuery.trim();
    if (!q) return;
    if (/^\d+$/.test(q)) {
      setValues({ ...values, patientId: q });
      setMatches(null);
      return;
    }
    try {
      setMatches(await searchAuditPatients(base, q));
    } catch (err) {
      reportError(err, 'Error searching patients');
    }
  };
  return (
    <form onSubmit={submit} aria-label="Filters">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
          <Stack gap={4}>
            <Group gap="xs" align="flex-end" wrap="nowrap">
              <TextInput label="Patient (id or name)" value={patientQuery} onChange={(e) => setPatientQuery(e.currentTarget.value)} style={{ flex: 1 }} />
              <Button variant="default" onClick={() => void findPatient()}>
                Find
              </Button>
            </Group>
            {values.patientId && (
              <Group gap="xs">
                <Badge variant="light">Patient id {values.patientId}</Badge>
                <Anchor component="button" type="button" fz="sm" onClick={() => setValues({ ...values, patientId: '' })}>
                  Clear patient
                </Anchor>
              </Group>
            )}
            {matches && (
              <List size="sm" aria-label="Patients found">
                {matches.length === 0 && <List.Item>No patient found</List.Item>}
                {matches.map((p) => (
                  <List.Item key={p.id}>
                    <Anchor component="button" type="button" onClick={() => { setValues({ ...values, patientId: String(p.id) }); setMatches(null); }}>
                      {p.name}
                      {p.dateOfBirth ? `, born ${p.dateOfBirth}` : ''}
                      {p.accountName ? ` (${p.accountName})` : ''} · id {p.id}
                    </Anchor>
                  </List.Item>
                ))}
              </List>
            )}
          </Stack>
          <TextInput label="Sample barcode" value={values.barcode} onChange={set('barcode')} />
          <TextInput label="User (email)" type="email" value={values.user} onChange={set('user')} />
          <TextInput label="Action" description="e.g. sample.viewed, or sample for every sample action" value={values.action} onChange={set('action')} />
          <TextInput label="From" type="date" value={values.from} onChange={set('from')} />
          <TextInput label="To" type="date" value={values.to} onChange={set('to')} />
        </SimpleGrid>
        <Group gap="sm">
          <Button type="submit">Apply filters</Button>
          <Button variant="subtle" onClick={() => onApply({})}>
            Clear filters
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Changes({ event }: { event: AuditEventView }) {
  if (!event.changes.length) return <Text fz="sm" c="dimmed">—</Text>;
  return (
    <List size="sm" spacing={2} listStyleType="none" aria-label="Changes">
      {event.changes.map((c, i) => (
        <List.Item key={i}>
          <Text span fw={600} fz="sm">{c.field}</Text>
          {': '}
          <Text span fz="sm" td="line-through" c="red.9">{auditValueText(c.old)}</Text>
          {' → '}
          <Text span fz="sm" fw={600}>{auditValueText(c.new)}</Text>
        </List.Item>
      ))}
    </List>
  );
}

function Events({ events }: { events: AuditEventView[] }) {
  if (!events.length) return <Text>No event matches these filters.</Text>;
  return (
    <RecordTable label="Audit events" columns={['When', 'Who', 'From', 'What', 'Old and new values']} minWidth={900}>
      {events.map((e) => (
        <Table.Tr key={e.id}>
          <Table.Td>
            <Text fz="sm">{formatDateTime(e.at)}</Text>
            <Text fz="xs" c="dimmed">#{e.id}{e.sealed ? ' · sealed' : ''}</Text>
          </Table.Td>
          <Table.Td>
            {e.actor ? (
              <>
                <Text fz="sm">{e.actor.name}</Text>
                <Text fz="xs" c="dimmed">{e.actor.email}</Text>
              </>
            ) : (
              <Text fz="sm" c="dimmed">{e.actorKind}</Text>
            )}
          </Table.Td>
          <Table.Td>
            <Text fz="sm" ff="monospace">{e.ip ?? '—'}</Text>
          </Table.Td>
          <Table.Td>
            <Text fz="sm" ff="monospace">{e.action}</Text>
            {e.entityKind && <Text fz="xs" c="dimmed">{e.entityKind} {e.entityLabel ?? e.entityId}</Text>}
          </Table.Td>
          <Table.Td>
            <Changes event={e} />
          </Table.Td>
        </Table.Tr>
      ))}
    </RecordTable>
  );
}

/** The CSV as a link; the PDF asked of the worker, watched, then a link. */
function Exports({ base, filters }: { base: string; filters: AuditTrailFilters }) {
  const [pdf, setPdf] = useState<AuditExportView | null>(null);
  const [asking, setAsking] = useState(false);
  useEffect(() => {
    if (!pdf || pdf.status !== 'Pending') return;
    const timer = setTimeout(() => {
      getAuditExport(base, pdf.id).then(setPdf, (err: unknown) => reportError(err, 'Error making the PDF'));
    }, 1000);
    return () => clearTimeout(timer);
  }, [base, pdf]);
  const ask = async () => {
    setAsking(true);
    try {
      setPdf(await requestAuditPdf(base, filters));
    } catch (err) {
      reportError(err, 'Error making the PDF');
    } finally {
      setAsking(false);
    }
  };
  return (
    <Stack gap="xs">
      <Title order={2} fz="h4">Export these events</Title>
      <Group gap="md" align="center">
        <Anchor href={auditCsvHref(base, filters)} download>
          Download CSV
        </Anchor>
        <Button variant="light" size="sm" loading={asking} onClick={() => void ask()}>
          Make a PDF
        </Button>
        {pdf?.status === 'Pending' && (
          <Group gap={6}>
            <Loader size="xs" />
            <Text fz="sm" role="status">Making the PDF…</Text>
          </Group>
        )}
        {pdf?.status === 'Completed' && pdf.downloadPath && (
          <Anchor href={`${API_PREFIX}${pdf.downloadPath}`} download>
            Download PDF ({pdf.events ?? 0} events)
          </Anchor>
        )}
        {pdf?.status === 'Failed' && <Text fz="sm" c="red.9" role="alert">{pdf.error}</Text>}
      </Group>
    </Stack>
  );
}

function VerifyTrail({ base }: { base: string }) {
  const [result, setResult] = useState<AuditVerificationView | null>(null);
  const [busy, setBusy] = useState(false);
  const verify = async () => {
    setBusy(true);
    try {
      setResult(await verifyAuditTrail(base));
    } catch (err) {
      reportError(err, 'Error verifying the audit trail');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="xs">
      <Group gap="sm">
        <Button variant="default" loading={busy} onClick={() => void verify()}>
          Verify the trail
        </Button>
        <Text fz="sm" c="dimmed">Recomputes every sealed row&apos;s hash and checks the chain links.</Text>
      </Group>
      {result &&
        (result.ok ? (
          <Notice color="green" title="The audit trail is intact">
            {result.checked} sealed events checked{result.headId !== null ? `; the chain ends at event #${result.headId}, hash ${result.headHash}` : ''}.
          </Notice>
        ) : (
          <Notice color="red" title={`The audit trail is broken at event #${result.broken?.id}`}>
            {result.broken?.reason}. {result.checked} events before it hold.
          </Notice>
        ))}
    </Stack>
  );
}
