import { Fragment, useEffect, useRef, useState } from 'react';
import {
  Anchor, Badge, Button, Checkbox, Group, Modal, Paper, Radio, ScrollArea, Select, Stack, Table, Tabs, Text, Textarea, TextInput, Tooltip,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link } from 'react-router-dom';
import {
  APPROVAL_GROUP_LABELS, type ApprovalGroup, catalogueEntry, countOf, DEFAULT_PAGE_SIZE, DNA_QC_HOLDS_RELEASE, PROCESSING_STEP_TESTS, formatCount, isTestName, REJECTION_REASONS, type RejectionReason, SAMPLE_OUTCOME_LABELS, type SampleOutcome, scaleValues, SignatureMeaning,
} from '@platform/domain';
import { useMe } from '../../api/auth';
import { approveResults, correctResult, rejectResults, useImportReview, useRefreshLab, useReleasedToxicityResults, useReviewList, type ReleasedResultRow, type ReviewListRow } from '../../api/lab';
import type { ApprovedResult } from '@platform/domain';
import { commandError } from '../../forms/server-errors';
import { FormError } from '../../components/FormError';
import { Pager } from '../../components/Pager';
import { useFormSubmit } from '../../forms/use-form-submit';
import { showSuccessToast } from '../../shell/success-toast';
import { useFocusBack } from '../../shell/focus-back';
import { LabPageFrame } from './LabPageFrame';
import { Notice } from '../../components/Notice';
import { AA_COLORS, statusColor } from '../../status-colors';
import { LAB_PATHS } from './paths';
import { ReviewFilterBar, useReviewFilters } from './ReviewFilters';
import { useDnaExtractions } from '../../api/dna-extractions';
import { FlaggedExtractionsPanel } from './FlaggedExtractions';
import { AskPatientButton } from './SampleQuestions';
import { forgetRefusedPassword, isSignatureRefusal, SignatureDialog, SignatureFields, signingPasswordRule } from './SignatureDialog';
import { reviewDetailId, ReviewRowDetail } from './ReviewRowDetail';
import { formatDateTime } from '../../format';

const isProcessingStep = (test: string) => (PROCESSING_STEP_TESTS as readonly string[]).includes(test);

/** What a release did, in words: test results went to their clinics; DNA extractions report nothing. */
function releasedOutcome(approved: ApprovedResult[]): string {
  const steps = approved.filter((a) => isProcessingStep(a.test)).length;
  const reported = approved.length - steps;
  const parts: string[] = [];
  if (reported) parts.push(`${countOf(reported, 'result', 'results')} released to the ordering clinics: the lab reports, the clinics' notices and the patients' result emails are on their way`);
  if (steps) parts.push(`${countOf(steps, 'DNA extraction', 'DNA extractions')} recorded: they report nothing, so their samples stay In Testing for their tests`);
  return parts.length ? `${parts.join('; ')}.` : 'Nothing was released.';
}

/** What approving sends out of the lab and to whom (a release cannot be taken back, only corrected). */
function ReleaseEffects({ rows }: { rows: ReviewListRow[] }) {
  const steps = rows.filter((r) => isProcessingStep(r.test)).length;
  const reported = rows.length - steps;
  const corrections = rows.filter((r) => r.releasedValue !== null).length;
  return (
    <>
      {reported > 0 && (
        <Text>
          {countOf(reported, 'test result goes', 'test results go')} to the ordering clinics now: each clinic is notified, the lab report is made, and each patient with an email on file is emailed a private link to their result.
        </Text>
      )}
      {corrections > 0 && <Text>{countOf(corrections, 'of them corrects', 'of them correct')} a released result: the clinic and the patient are told it was corrected.</Text>}
      {steps > 0 && <Text>{countOf(steps, 'DNA extraction is', 'DNA extractions are')} recorded; nothing is sent for {steps === 1 ? 'it' : 'them'}.</Text>}
      <Text fz="sm" c="dimmed">A released result cannot be taken back; it can only be corrected.</Text>
    </>
  );
}

type ApprovalOutcome = { approved: ApprovedResult[]; errors: string[] };

/**
 * Releases the chosen results, each approval group's in turn, all signed with the one password
 * entered. The first group's answer proves the password: a refused signature there releases nothing
 * and is thrown (the signing dialog shows it on its password field and stays open); any other
 * refusal of a group is named in the outcome.
 */
async function approveSigned(rows: ReviewListRow[], password: string): Promise<ApprovalOutcome> {
  const byGroup = new Map<ApprovalGroup, number[]>();
  for (const r of rows) if (r.approvalGroup) byGroup.set(r.approvalGroup, [...(byGroup.get(r.approvalGroup) ?? []), r.id]);
  const approved: ApprovedResult[] = [];
  const errors: string[] = [];
  let first = true;
  for (const [g, ids] of byGroup) {
    try {
      approved.push(...(await approveResults(g, ids, password)).approved);
    } catch (e) {
      if (first && isSignatureRefusal(e)) throw e;
      errors.push(`${APPROVAL_GROUP_LABELS[g]}: ${commandError(e)}`);
    }
    first = false;
  }
  return { approved, errors };
}

function RejectModal({ rows, onClose, onDone }: { rows: ReviewListRow[]; onClose: () => void; onDone: (message: string) => void }) {
  const form = useForm<{ reason: string; outcome: SampleOutcome; rejectionReason: RejectionReason | null }>({
    initialValues: { reason: '', outcome: 'retest', rejectionReason: null },
  });
  const { reason, outcome, rejectionReason } = form.getValues();
  const sending = useFormSubmit(
    form,
    (values) =>
      rejectResults({
        resultIds: rows.map((r) => r.id), reason: values.reason.trim(), sampleOutcome: values.outcome,
        ...(values.outcome === 'reject-sample' ? { rejectionReason: values.rejectionReason! } : {}),
      }),
    {
      fieldOf: (field) => (field === 'reason' ? 'reason' : field === 'sampleOutcome' ? 'outcome' : field === 'rejectionReason' ? 'rejectionReason' : undefined),
      onSuccess: (res, values) =>
        onDone(`${res.rejected.length} ${res.rejected.length === 1 ? 'result' : 'results'} rejected${values.outcome === 'reject-sample' ? '; the samples are rejected' : '; the samples stay In Testing for a retest'}`),
    },
  );
  return (
    <Modal opened onClose={onClose} title={`Reject ${rows.length} ${rows.length === 1 ? 'result' : 'results'}`} size="lg">
      <Stack gap="md">
        <Text fz="sm">{rows.map((r) => `${r.barcode} (${r.test}: ${r.value})`).join(', ')}</Text>
        <Textarea label="Why" required {...form.getInputProps('reason')} autosize minRows={2} maxLength={500} />
        <Radio.Group label="And the sample" {...form.getInputProps('outcome')}>
          <Stack gap={6} mt={6}>
            {(Object.keys(SAMPLE_OUTCOME_LABELS) as SampleOutcome[]).map((o) => <Radio key={o} value={o} label={SAMPLE_OUTCOME_LABELS[o]} />)}
          </Stack>
        </Radio.Group>
        {outcome === 'reject-sample' && (
          <Select label="Sample rejection reason" data={REJECTION_REASONS} required {...form.getInputProps('rejectionReason')} />
        )}
        <FormError error={sending.error === undefined ? undefined : commandError(sending.error)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button color={AA_COLORS.red} onClick={sending.submit} loading={sending.submitting} disabled={!reason.trim() || (outcome === 'reject-sample' && !rejectionReason)}>Reject</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function InReview() {
  const reviewFilters = useReviewFilters();
  const { filters } = reviewFilters;
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [message, setMessage] = useState<{ color: 'green' | 'red'; text: string } | null>(null);
  // An approval or a rejection disables the button pressed: its outcome takes the focus.
  const outcome = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (message) outcome.current?.focus();
  }, [message]);
  // Dismissing the outcome, or closing the rejection dialog, takes the focused control away: the
  // focus goes back to the button that led there, or (disabled once its rows are done) the page's heading.
  const focusBack = useFocusBack();
  const [rejecting, setRejecting] = useState<ReviewListRow[] | null>(null);
  const refresh = useRefreshLab();
  const { data: me } = useMe();
  const pageSize = 50;
  const { data, isLoading } = useReviewList({ page, pageSize, ...filters });
  const { data: importSummary } = useImportReview(filters.jobId ?? null);
  const rows = data?.rows ?? [];
  // Flagged DNA extractions are never approved: they are decided (re-extraction or rejection) above the list.
  const showFlagged = !filters.group || filters.group === 'dna-extraction';
  const { data: flaggedPage } = useDnaExtractions(showFlagged ? { page: 1, pageSize: 50, jobId: filters.jobId ?? undefined, barcode: filters.barcode ?? undefined, flagged: true, awaitingDecision: true } : null);
  const flaggedResults = new Set((flaggedPage?.rows ?? []).map((e) => e.result.id));
  const chosen = rows.filter((r) => selected.has(r.id));
  const approvable = chosen.filter((r) => r.canApprove);
  const shownApprovable = rows.filter((r) => r.canApprove);

  // A new filter is a new list: back to its first page, nothing chosen.
  const filterKey = JSON.stringify(filters);
  const [lastFilterKey, setLastFilterKey] = useState(filterKey);
  if (filterKey !== lastFilterKey) {
    setLastFilterKey(filterKey);
    setPage(1);
    setSelected(new Set());
  }

  // Rows whose details (QC, earlier results, run, specimen) are open.
  const [open, setOpen] = useState<Set<number>>(new Set());
  const toggleOpen = (id: number) => setOpen((s) => { const next = new Set(s); if (next.has(id)) next.delete(id); else next.add(id); return next; });
  const toggle = (id: number) => setSelected((s) => { const next = new Set(s); if (next.has(id)) next.delete(id); else next.add(id); return next; });
  const filterByImport = (jobId: number) => reviewFilters.setFilter({ jobId });

  // Approving is signing: the dialog says what is released and to whom, and takes the password (SignatureDialog).
  const [confirming, setConfirming] = useState<ReviewListRow[] | null>(null);
  function approved({ approved, errors }: ApprovalOutcome) {
    setConfirming(null);
    setSelected(new Set());
    refresh();
    const released = approved.length;
    if (released) showSuccessToast(`${released} ${released === 1 ? 'result' : 'results'} released`);
    const said = releasedOutcome(approved);
    setMessage(errors.length
      ? { color: 'red', text: `${released ? `${said} ` : ''}Not released: ${errors.join(' ')}` }
      : { color: 'green', text: said });
  }

  return (
    <Stack gap="md">
      <ReviewFilterBar {...reviewFilters} />
      {importSummary && (
        <Text fz="sm">
          {importSummary.file?.name ?? 'Import'} imported by {importSummary.importedBy?.name ?? 'unknown'} {importSummary.importedAt ? `on ${formatDateTime(importSummary.importedAt)}` : ''}:{' '}
          {Object.entries(importSummary.results).filter(([, n]) => n > 0).map(([s, n]) => `${formatCount(n)} ${s}`).join(' · ') || 'no results'}
        </Text>
      )}
      {message && (
        <div ref={outcome} tabIndex={-1} data-testid="review-outcome">
          <Notice color={message.color} onClose={focusBack.after(() => setMessage(null))}>{message.text}</Notice>
        </div>
      )}
      {showFlagged && <FlaggedExtractionsPanel awaitingDecision jobId={filters.jobId ?? undefined} barcode={filters.barcode ?? undefined} hideWhenEmpty title="Flagged DNA extractions: re-extract or reject" />}
      <Group gap="sm">
        <Button variant="default" onClick={() => setSelected(new Set(shownApprovable.map((r) => r.id)))} disabled={shownApprovable.length === 0}>
          Choose all you may approve{shownApprovable.length ? ` (${shownApprovable.length})` : ''}
        </Button>
        <Button color={AA_COLORS.green} onClick={(e) => { focusBack.remember(e.currentTarget); setConfirming(approvable); }} disabled={approvable.length === 0}>Approve {approvable.length || ''}</Button>
        <Button color={AA_COLORS.red} variant="outline" onClick={(e) => { focusBack.remember(e.currentTarget); setRejecting(chosen); }} disabled={chosen.length === 0}>Reject {chosen.length || ''}</Button>
        {chosen.length > approvable.length && (
          <Text fz="sm" c="dimmed">{chosen.length - approvable.length} of the chosen cannot be approved by you (you entered them, their plate's controls failed, their DNA extraction is outside the acceptance range, or their sample's DNA failed its check or waits for re-extraction).</Text>
        )}
      </Group>
      <ScrollArea>
        <Table striped withTableBorder aria-label="Results in review" miw={900}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40}>
                <Checkbox aria-label="Choose every result on this page" checked={rows.length > 0 && chosen.length === rows.length}
                  indeterminate={chosen.length > 0 && chosen.length < rows.length}
                  onChange={() => setSelected(chosen.length === rows.length ? new Set() : new Set(rows.map((r) => r.id)))} />
              </Table.Th>
              <Table.Th>Barcode</Table.Th>
              <Table.Th>Test</Table.Th>
              <Table.Th>Result</Table.Th>
              <Table.Th>Patient</Table.Th>
              <Table.Th>Entered by</Table.Th>
              <Table.Th>From</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {!isLoading && rows.length === 0 && (
              <Table.Tr><Table.Td colSpan={7}><Text c="dimmed" ta="center" py="md">{reviewFilters.active ? 'Nothing in review matches these filters.' : 'Nothing waits for review here.'}</Text></Table.Td></Table.Tr>
            )}
            {rows.map((r) => {
              const mine = r.enteredBy.id === me?.user.id;
              const expanded = open.has(r.id);
              return (
                <Fragment key={r.id}>
                <Table.Tr>
                  <Table.Td><Checkbox aria-label={`Choose ${r.barcode} ${r.test}`} checked={selected.has(r.id)} onChange={() => toggle(r.id)} /></Table.Td>
                  <Table.Td ff="monospace" fz="sm">
                    {r.barcode}<br /><Badge size="xs" color={statusColor(r.sampleStatus)}>{r.sampleStatus}</Badge>
                    {r.dna && <Text ff="text" fz="xs" fw={DNA_QC_HOLDS_RELEASE.includes(r.dna.qc) ? 700 : 400} c={DNA_QC_HOLDS_RELEASE.includes(r.dna.qc) ? AA_COLORS.red : 'dimmed'} data-testid="dna-state">{r.dna.text}</Text>}
                    {/* Its name starts with the words it shows; aria-expanded (and a filled look) say whether the details are open. */}
                    <Button ff="text" size="compact-xs" variant={expanded ? 'light' : 'subtle'} mt={2} aria-expanded={expanded} aria-controls={expanded ? reviewDetailId(r.id) : undefined}
                      aria-label={`Details: ${r.barcode} ${r.test}`} onClick={() => toggleOpen(r.id)}>
                      Details
                    </Button>
                  </Table.Td>
                  <Table.Td fz="sm">{r.test}{r.version > 1 ? <Text fz="xs" c="dimmed">version {r.version}</Text> : null}</Table.Td>
                  <Table.Td fz="sm">
                    <Tooltip label={r.interpretation ?? ''} disabled={!r.interpretation} multiline w={320} withinPortal><Text fw={600} fz="sm">{r.value}</Text></Tooltip>
                    {flaggedResults.has(r.id) && <Badge size="xs" color={AA_COLORS.orange}>Outside the acceptance range: decide above</Badge>}
                    {r.correctionReason && <Text fz="xs" c={AA_COLORS.orange}>Correction of {r.releasedValue ?? 'the released result'}: {r.correctionReason}</Text>}
                    {r.context.changedFromLast && <Text fz="xs" fw={700} c={AA_COLORS.orange}>Changed from {r.context.earlier[0].value}</Text>}
                    {!r.canApprove && <Badge size="xs" color={AA_COLORS.red} variant="outline">Cannot approve</Badge>}
                  </Table.Td>
                  <Table.Td fz="sm">{r.patient}<Text fz="xs" c="dimmed">{r.account ?? 'Lab ordered'}</Text><AskPatientButton sampleId={r.sampleId} barcode={r.barcode} /></Table.Td>
                  <Table.Td fz="sm">
                    {r.enteredBy.name} {mine && <Badge size="xs" color={AA_COLORS.gray}>you</Badge>}
                    <Text fz="xs" c="dimmed">{formatDateTime(r.enteredAt)}</Text>
                  </Table.Td>
                  <Table.Td fz="sm">
                    {r.importFile && <Anchor component="button" type="button" fz="sm" onClick={() => filterByImport(r.importJobId!)} aria-label={`Show only the import ${r.importFile.name}`}>{r.importFile.name}</Anchor>}
                    {r.plate && (
                      <>
                        <Anchor component={Link} to={`${LAB_PATHS.pcrResulting}?plate=${r.plate.id}`} fz="sm">Plate {r.plate.name}, {r.plate.well}</Anchor>
                        {!r.plate.controlsPassed && <Tooltip label={r.plate.controlProblems.join('; ')} multiline w={320} withinPortal><Badge size="xs" color={AA_COLORS.red} ml={4}>Controls failed</Badge></Tooltip>}
                      </>
                    )}
                    {!r.importFile && !r.plate && <Text fz="sm" c="dimmed">{r.correctionReason ? 'Correction' : 'Entered'}</Text>}
                  </Table.Td>
                </Table.Tr>
                {expanded && (
                  <Table.Tr>
                    <Table.Td colSpan={7}>
                      <ReviewRowDetail row={r} onApprove={(row, button) => { focusBack.remember(button); setConfirming([row]); }} />
                    </Table.Td>
                  </Table.Tr>
                )}
                </Fragment>
              );
            })}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      <Pager page={page} pageSize={pageSize} total={data?.total ?? 0} onPage={(p) => { setPage(p); setSelected(new Set()); }} noun="results in review" />
      {confirming && (
        <SignatureDialog
          title={`Sign to release ${countOf(confirming.length, 'result', 'results')}`}
          meaning={SignatureMeaning.Release}
          items={confirming.map((r) => ({ key: r.id, text: `${r.barcode} · ${r.test}: ${r.value}` }))}
          signLabel="Sign and approve"
          onSign={(password) => approveSigned(confirming, password)}
          onSigned={approved}
          onCancel={focusBack.after(() => setConfirming(null))}
        >
          <ReleaseEffects rows={confirming} />
        </SignatureDialog>
      )}
      {rejecting && (
        <RejectModal rows={rejecting} onClose={focusBack.after(() => setRejecting(null))} onDone={(text) => { setRejecting(null); setSelected(new Set()); refresh(); setMessage({ color: 'green', text }); }} />
      )}
    </Stack>
  );
}

/** A correction is signed where it is entered: its meaning, the signer and the password below the new value and the reason. */
function CorrectModal({ row, onClose, onDone }: { row: ReleasedResultRow; onClose: () => void; onDone: (message: string) => void }) {
  const values = isTestName(row.test) ? [...new Set(catalogueEntry(row.test).acceptedScales.flatMap((s) => scaleValues(s) ?? []))].filter((v) => v !== row.value) : [];
  const form = useForm<{ value: string | null; reason: string; password: string }>({
    initialValues: { value: null, reason: '', password: '' },
    validate: { password: signingPasswordRule },
  });
  const { value, reason } = form.getValues();
  const passwordField = useRef<HTMLInputElement>(null);
  const sending = useFormSubmit(
    form,
    (values) => correctResult({ sampleBarcode: row.barcode, testName: row.test as never, value: values.value!, reason: values.reason.trim(), password: values.password }),
    {
      onSuccess: (res) => {
        form.reset();
        onDone(`Correction of ${res.barcode} (${res.test}: ${res.releasedValue} → ${res.value}) entered as version ${res.version}; another lab user approves it.`);
      },
      onError: (error) => forgetRefusedPassword(form, error, passwordField.current),
    },
  );
  const close = () => {
    if (!sending.submitting) onClose();
  };
  return (
    <Modal opened onClose={close} title={`Correct ${row.barcode} (${row.test})`} size="lg">
      <form onSubmit={sending.onSubmit} noValidate>
        <Stack gap="md">
          <Text fz="sm">Released: <b>{row.value}</b> on {formatDateTime(row.releasedAt)}. The correction is a new version; the report is re-issued marked Corrected once it is approved.</Text>
          <Select label="Corrected result" data={values} required {...form.getInputProps('value')} />
          <Textarea label="Reason for the correction" required {...form.getInputProps('reason')} autosize minRows={2} maxLength={500} />
          <SignatureFields ref={passwordField} meaning={SignatureMeaning.Correction} passwordProps={form.getInputProps('password')} />
          <FormError error={sending.error === undefined ? undefined : commandError(sending.error)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={sending.submitting}>Cancel</Button>
            <Button type="submit" loading={sending.submitting} disabled={!value || !reason.trim()}>Sign and enter correction</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function Released() {
  const [page, setPage] = useState(1);
  const [barcode, setBarcode] = useState('');
  const [correcting, setCorrecting] = useState<ReleasedResultRow | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  // The correction dialog and the message each take the focused control with them: back to the row's Correct button.
  const focusBack = useFocusBack();
  const refresh = useRefreshLab();
  const pageSize = DEFAULT_PAGE_SIZE * 2;
  const { data } = useReleasedToxicityResults({ page, pageSize, barcode: barcode.trim() || undefined });
  return (
    <Stack gap="md">
      <TextInput label="Barcode" placeholder="Find one sample" value={barcode} onChange={(e) => { setBarcode(e.currentTarget.value); setPage(1); }} w={260} ff="monospace" />
      {message && <Notice color="green" onClose={focusBack.after(() => setMessage(null))}>{message}</Notice>}
      <ScrollArea>
        <Table striped withTableBorder aria-label="Released toxicity results" miw={800}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Barcode</Table.Th>
              <Table.Th>Test</Table.Th>
              <Table.Th>Result</Table.Th>
              <Table.Th>Patient</Table.Th>
              <Table.Th>Entered / released by</Table.Th>
              <Table.Th>Released</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data?.rows.map((r) => (
              <Table.Tr key={r.id}>
                <Table.Td ff="monospace" fz="sm">{r.barcode}</Table.Td>
                <Table.Td fz="sm">{r.test}</Table.Td>
                <Table.Td fz="sm"><b>{r.value}</b>{r.correctionReason && <Text fz="xs" c={AA_COLORS.orange}>Corrected: {r.correctionReason}</Text>}</Table.Td>
                <Table.Td fz="sm">{r.patient}<Text fz="xs" c="dimmed">{r.account ?? 'Lab ordered'}</Text><AskPatientButton sampleId={r.sampleId} barcode={r.barcode} /></Table.Td>
                <Table.Td fz="sm">{r.enteredBy.name} / {r.releasedBy?.name ?? '—'}</Table.Td>
                <Table.Td fz="sm">{formatDateTime(r.releasedAt)}</Table.Td>
                <Table.Td><Button size="compact-sm" variant="light" onClick={(e) => { focusBack.remember(e.currentTarget); setCorrecting(r); }}>Correct</Button></Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      <Pager page={page} pageSize={pageSize} total={data?.total ?? 0} onPage={setPage} noun="released results" />
      {correcting && <CorrectModal row={correcting} onClose={focusBack.after(() => setCorrecting(null))} onDone={focusBack.after((m: string) => { setCorrecting(null); setMessage(m); refresh(); })} />}
    </Stack>
  );
}

/**
 * /lab_toolbox/review: results waiting for review (who entered each, from which file or plate);
 * approve releases them, reject sends the sample to a retest or rejects it. Your own results are
 * listed but only another lab user can approve them. A second tab lists released toxicity
 * results, where a correction starts. On every row the lab can ask the sample's patient a question
 * and see the questions already asked, with their answers (SampleQuestions.tsx).
 */
export function ReviewPage() {
  return (
    <LabPageFrame title="Review and approve" subtitle="A result is released only by a lab user other than the one who entered or imported it." maxWidth={1400}>
      <Paper withBorder p="md">
        <Tabs defaultValue="review" keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="review">In review</Tabs.Tab>
            <Tabs.Tab value="released">Released toxicity results</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="review"><InReview /></Tabs.Panel>
          <Tabs.Panel value="released"><Released /></Tabs.Panel>
        </Tabs>
      </Paper>
    </LabPageFrame>
  );
}
