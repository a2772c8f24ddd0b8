import { useEffect, useRef, useState } from 'react';
import { Anchor, Badge, Button, FileInput, Group, List, Paper, Progress, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, useSearchParams } from 'react-router-dom';
import {
  describeAcceptance, EXTRACTION_COLUMNS, type ExtractionColumn, type ExtractionCommitResult, type ExtractionDryRunResult,
  formatCount, IMPORT_BARCODE_COLUMN, IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, IMPORT_TEST_COLUMN, IMPORT_VALUE_COLUMN, type ImportCommitResult, type ImportDryRunResult, importKindValues, LAB_IMPORT_KIND_LABELS, type LabImportKind,
} from '@platform/domain';
import { commitImportFile, importErrorsCsvUrl, uploadImportFile, useImportJob, type ImportJob } from '../../api/lab';
import { ApiError } from '../../api/fetcher';
import { commandError } from '../../forms/server-errors';
import { FormError } from '../../components/FormError';
import { useCommand, useFormSubmit } from '../../forms/use-form-submit';
import { LabPageFrame } from './LabPageFrame';
import { Notice } from '../../components/Notice';
import { AA_COLORS, statusColor } from '../../status-colors';
import { LAB_PATHS } from './paths';
import { FlaggedDryRunTable, FlaggedExtractionsPanel } from './FlaggedExtractions';

const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

function JobBadge({ job }: { job: ImportJob }) {
  return <Badge color={job.status === 'Failed' ? AA_COLORS.red : job.status === 'Completed' ? AA_COLORS.green : AA_COLORS.gray}>{job.status}</Badge>;
}

function JobProgress({ job, label }: { job: ImportJob | undefined; label: string }) {
  if (!job || job.status !== 'Pending') return null;
  return (
    <Stack gap={4}>
      <Text fz="sm">{label}… {job.progress}%</Text>
      <Progress value={Math.max(job.progress, 3)} animated aria-label={label} />
    </Stack>
  );
}

/** The dry run of a DNA extraction run adds the acceptance range and the flagged rows. */
const extractionPart = (result: ImportDryRunResult | null) => (result?.kind === 'dna-extraction' ? (result as ExtractionDryRunResult) : null);

function DryRunView({ job }: { job: ImportJob }) {
  const result = job.result as (ImportDryRunResult & { errorsTruncated?: boolean }) | null;
  const extraction = extractionPart(result);
  if (job.status === 'Failed') {
    return (
      <Notice color="red" title="The file cannot be imported">
        {job.error}. Nothing was written: correct the file and upload it again.
      </Notice>
    );
  }
  if (job.status !== 'Completed' || !result) return null;
  const clean = result.errorCount === 0;
  return (
    <Stack gap="md">
      <Notice color={clean ? 'green' : 'red'} title={clean ? 'Every row can be imported' : `${plural(result.errorCount, 'error')} found`}>
        {result.fileName}: {plural(result.rowCount, 'row')}. {clean ? 'Check the rows below, then commit the file.' : 'Nothing was written. Correct these rows and upload the file again.'}
        {extraction && `\nAcceptance range: ${describeAcceptance(extraction.acceptance)}. ${extraction.flaggedCount ? `${plural(extraction.flaggedCount, 'row')} outside it (flagged below).` : 'Every row that can be imported is within it.'}`}
      </Notice>
      {extraction && extraction.flaggedCount > 0 && <FlaggedDryRunTable rows={extraction.flagged} total={extraction.flaggedCount} />}
      {!clean && (
        <Stack gap="xs">
          <Group justify="space-between">
            <Title order={3} fz="lg">Errors</Title>
            <Button component="a" href={importErrorsCsvUrl(job.id)} download variant="light">
              Download errors (CSV)
            </Button>
          </Group>
          {result.errorsTruncated && <Text fz="sm" c="dimmed">The first {formatCount(result.errors.length)} errors are shown; the CSV has all {formatCount(result.errorCount)}.</Text>}
          <ScrollArea.Autosize mah={420}>
            <Table striped withTableBorder aria-label="Errors">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Row</Table.Th>
                  <Table.Th>Column</Table.Th>
                  <Table.Th>Value</Table.Th>
                  <Table.Th>Problem</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {result.errors.map((e, i) => (
                  <Table.Tr key={i}>
                    <Table.Td>{e.row ?? '—'}</Table.Td>
                    <Table.Td>{e.column}</Table.Td>
                    <Table.Td ff="monospace">{e.value}</Table.Td>
                    <Table.Td>{e.message}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        </Stack>
      )}
      <Stack gap="xs">
        <Title order={3} fz="lg">Rows{result.rowCount > result.rows.length ? ` (the first ${formatCount(result.rows.length)} of ${formatCount(result.rowCount)})` : ''}</Title>
        <ScrollArea.Autosize mah={420}>
          <Table striped withTableBorder aria-label="Rows as read">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Row</Table.Th>
                <Table.Th>{extraction ? 'Sample' : 'Barcode'}</Table.Th>
                <Table.Th>{extraction ? 'Extraction' : 'Value'}</Table.Th>
                <Table.Th>Test</Table.Th>
                <Table.Th>Sample status</Table.Th>
                <Table.Th>Check</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {result.rows.map((r) => (
                <Table.Tr key={r.row}>
                  <Table.Td>{r.row}</Table.Td>
                  <Table.Td ff="monospace">{r.barcode}</Table.Td>
                  <Table.Td>{r.value}</Table.Td>
                  <Table.Td>{r.test ?? '—'}</Table.Td>
                  <Table.Td>{r.sampleStatus ? <Badge color={statusColor(r.sampleStatus)}>{r.sampleStatus}</Badge> : '—'}</Table.Td>
                  <Table.Td>{r.ok ? <Badge color={AA_COLORS.green}>OK</Badge> : <Badge color={AA_COLORS.red}>Error</Badge>}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      </Stack>
    </Stack>
  );
}

function CommitView({ job }: { job: ImportJob }) {
  if (job.status === 'Failed') {
    return <Notice color="red" title="The commit failed">{job.error}</Notice>;
  }
  if (job.status !== 'Completed' || !job.result) return null;
  const result = job.result as ImportCommitResult;
  if (result.kind === 'dna-extraction') {
    const { flaggedCount } = result as ExtractionCommitResult;
    return (
      <Stack gap="md">
        <Notice color="green" title="Imported">
          {plural(result.resultsWritten, 'DNA extraction')} written and waiting for review; {plural(result.samplesMovedToTesting, 'sample')} moved to In Testing.{' '}
          {flaggedCount ? `${plural(flaggedCount, 'extraction')} outside the acceptance range: decide each below. ` : ''}
          <Anchor component={Link} to={`${LAB_PATHS.review}?job=${job.id}`}>
            Review this import
          </Anchor>{' '}
          (another lab user approves the extractions within the range).
        </Notice>
        {flaggedCount > 0 && <FlaggedExtractionsPanel jobId={job.id} title="Flagged samples: re-extract or reject" />}
      </Stack>
    );
  }
  return (
    <Notice color="green" title="Imported">
      {plural(result.resultsWritten, 'result')} written and waiting for review; {plural(result.samplesMovedToTesting, 'sample')} moved to In Testing.{' '}
      <Anchor component={Link} to={`${LAB_PATHS.review}?job=${job.id}`}>
        Review this import
      </Anchor>{' '}
      (another lab user approves it).
    </Notice>
  );
}

const EXTRACTION_UNITS: Partial<Record<ExtractionColumn, string>> = { concentration: 'ng/µL', volume: 'µL', well: 'A1–H12' };

/** What the file holds: the result files' two or three columns, or an extraction run's six. */
function FileColumns({ kind }: { kind: LabImportKind }) {
  if (kind === 'dna-extraction') {
    return (
      <>
        <Text>
          A CSV or Excel (.xlsx) file of one extraction run with a header row and the columns{' '}
          {EXTRACTION_COLUMNS.map((c, i) => <span key={c}>{i ? (i === EXTRACTION_COLUMNS.length - 1 ? ' and ' : ', ') : ''}<b>{c}</b>{EXTRACTION_UNITS[c] ? ` (${EXTRACTION_UNITS[c]})` : ''}</span>)}.
          At most {formatCount(IMPORT_MAX_ROWS)} rows and {formatCount(IMPORT_MAX_BYTES / 1024 / 1024)} MB. Every row is checked first; nothing is written until you commit.
        </Text>
        <Text fz="sm" c="dimmed">
          A re-extraction goes by its sample id + .reex (41000000000001.reex). Values are read exactly as written: a space around a value is an error.
          Samples outside the lab&apos;s acceptance range are flagged, not refused.
        </Text>
      </>
    );
  }
  const valueColumn = IMPORT_VALUE_COLUMN[kind];
  return (
    <>
      <Text>
        A CSV or Excel (.xlsx) file with a header row and the columns <b>{IMPORT_BARCODE_COLUMN}</b> and <b>{valueColumn}</b> (and
        optionally <b>{IMPORT_TEST_COLUMN}</b>, when a sample has more than one test). At most {formatCount(IMPORT_MAX_ROWS)} rows and{' '}
        {formatCount(IMPORT_MAX_BYTES / 1024 / 1024)} MB. Every row is checked first; nothing is written until you commit.
      </Text>
      <Text fz="sm" c="dimmed">{valueColumn} values: {importKindValues(kind).join(' · ')}</Text>
    </>
  );
}

/**
 * /lab_toolbox/cfrt_toxicity_import_tool, /lab_toolbox/kras_prostate_immune_import_tool and
 * /lab_toolbox/dna_extraction_import_tool: upload a CSV or XLSX, watch the check run, read every
 * row and error (with row numbers), then commit the whole file, or nothing. An extraction run's
 * check also lists the samples outside the acceptance range; after its commit each is sent to
 * re-extraction or rejected here (or from the review page).
 */
export function ImportToolPage({ kind, title }: { kind: LabImportKind; title: string }) {
  const [params, setParams] = useSearchParams();
  const dryRunId = Number(params.get('job')) || null;
  const commitId = Number(params.get('commit')) || null;
  const { data: dryRun, error: dryRunError } = useImportJob(dryRunId);
  const { data: commit, error: commitError } = useImportJob(commitId);
  // A stale or mistyped link: the import it names does not exist (said on the page, not in an error modal).
  const unknownImport = [dryRunError, commitError].some((e) => e instanceof ApiError && e.status === 404);

  const form = useForm<{ file: File | null }>({
    initialValues: { file: null },
    validate: {
      file: (file) =>
        !file ? 'Choose the file' : file.size > IMPORT_MAX_BYTES ? `The file is ${formatCount(Math.ceil(file.size / 1024 / 1024))} MB; the limit is ${formatCount(IMPORT_MAX_BYTES / 1024 / 1024)} MB` : null,
    },
  });
  // The button pressed goes away or is disabled once a check or a commit starts: the focus moves
  // to that job's heading when it shows, so a keyboard or screen reader user goes on from there.
  const checkHeading = useRef<HTMLHeadingElement>(null);
  const commitHeading = useRef<HTMLHeadingElement>(null);
  const [focusNext, setFocusNext] = useState<'check' | 'commit' | null>(null);
  useEffect(() => {
    const heading = focusNext === 'check' ? checkHeading.current : focusNext === 'commit' ? commitHeading.current : null;
    if (!heading) return;
    heading.focus();
    setFocusNext(null);
  });
  const upload = useFormSubmit(form, (values) => uploadImportFile(kind, values.file!), {
    fieldOf: () => undefined,
    onSuccess: ({ jobId }) => {
      setParams({ job: String(jobId) });
      form.reset();
      setFocusNext('check');
    },
  });
  // Committing sends no form: the checked file's id only.
  const committing = useCommand(`import-commit:${kind}`, (fileId: number) => commitImportFile(fileId));
  const doCommit = async () => {
    if (!dryRun?.file) return;
    upload.reset();
    const answer = await committing.trigger(dryRun.file.id).catch(() => undefined); // the error shows below
    if (!answer) return;
    setParams({ job: String(dryRun.id), commit: String(answer.jobId) });
    setFocusNext('commit');
  };
  const error = upload.error ?? committing.error;

  const dryResult = dryRun?.status === 'Completed' ? (dryRun.result as ImportDryRunResult | null) : null;
  const committable = Boolean(dryResult && dryResult.errorCount === 0 && dryRun?.mode === 'dry-run' && !commitId);

  return (
    <LabPageFrame title={title} subtitle={LAB_IMPORT_KIND_LABELS[kind]}>
      {unknownImport && (
        <Notice color="orange" title="This import does not exist">
          The link names an import the lab does not have (an old or mistyped link). Choose a file below to start a new one.
        </Notice>
      )}
      <Paper withBorder p="md">
        <Stack gap="sm">
          <FileColumns kind={kind} />
          <Group align="flex-end" gap="sm">
            <FileInput
              label={kind === 'dna-extraction' ? 'Extraction file' : 'Result file'}
              description="A .csv or .xlsx file"
              accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              {...form.getInputProps('file')}
              clearable
              style={{ flex: 1, minWidth: 240 }}
            />
            <Button onClick={() => { committing.reset(); upload.submit(); }} disabled={!form.getValues().file} loading={upload.submitting}>
              Check the file
            </Button>
          </Group>
        </Stack>
      </Paper>

      <FormError title="Not done" error={error === undefined ? undefined : commandError(error)} />

      {dryRun && (
        <Paper component="section" aria-labelledby="import-check-heading" withBorder p="md">
          <Stack gap="md">
            <Group justify="space-between">
              <Title order={2} fz="xl" id="import-check-heading" ref={checkHeading} tabIndex={-1}>Check of {dryRun.file?.name ?? 'the file'}</Title>
              <JobBadge job={dryRun} />
            </Group>
            <JobProgress job={dryRun} label="Checking every row" />
            <DryRunView job={dryRun} />
            {dryRun.status === 'Completed' && (
              <Group gap="sm">
                <Button onClick={() => void doCommit()} disabled={!committable} loading={committing.isMutating} color={AA_COLORS.green}>
                  Commit {dryResult ? plural(dryResult.rowCount, 'row') : ''}
                </Button>
                {!committable && !commitId && <Text fz="sm" c="dimmed">Commit is possible once a check finds no errors.</Text>}
              </Group>
            )}
          </Stack>
        </Paper>
      )}

      {commit && (
        <Paper component="section" aria-labelledby="import-commit-heading" withBorder p="md">
          <Stack gap="md">
            <Group justify="space-between">
              <Title order={2} fz="xl" id="import-commit-heading" ref={commitHeading} tabIndex={-1}>Commit</Title>
              <JobBadge job={commit} />
            </Group>
            <JobProgress job={commit} label="Writing the results" />
            <CommitView job={commit} />
          </Stack>
        </Paper>
      )}

      <List size="sm" c="dimmed">
        <List.Item>Row numbers are those of the spreadsheet: the header is row 1.</List.Item>
        <List.Item>The results are entered in the name of the person who uploads the file; another lab user approves them.</List.Item>
      </List>
    </LabPageFrame>
  );
}
