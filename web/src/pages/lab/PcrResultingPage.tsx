import { Fragment, useEffect, useMemo } from 'react';
import { Anchor, Badge, Button, Grid, Group, List, NavLink, Paper, ScrollArea, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, useSearchParams } from 'react-router-dom';
import {
  checkPcrControls, COVID_PCR_RESULT_TEXT, COVID_PCR_RESULTS, PCR_CONTROL_EXPECTED, PCR_CONTROL_LABELS, PcrPlateStatus, type CovidPcrResult, type PcrControlKind,
} from '@platform/domain';
import { enterPlateResults, usePcrPlate, usePcrPlates, useRefreshLab, type Plate } from '../../api/lab';
import { commandError } from '../../forms/server-errors';
import { FormError } from '../../components/FormError';
import { useFormSubmit } from '../../forms/use-form-submit';
import { LabPageFrame } from './LabPageFrame';
import { Notice } from '../../components/Notice';
import { PcrPlateGrid, PlateTestLegend } from './PcrPlateGrid';
import { AA_COLORS } from '../../status-colors';
import { LAB_PATHS } from './paths';
import { PrintLabelMenu } from '../../components/labels/PrintLabelMenu';
import { pcrPlateLabelPath } from '../../api/labels';
import { formatDateTime } from '../../format';

const KIND_LABEL: Record<'sample' | PcrControlKind, string> = { sample: 'Sample', ...PCR_CONTROL_LABELS };

/**
 * The test a well's sample is for, in words (COVID-19 PCR or COVID-19 Rapid); a control has none.
 * A narrow column breaks it between words only (never after "COVID-").
 */
function WellTest({ test }: { test: string | null }) {
  if (!test) return '—';
  const words = test.split(' ');
  return <Text fz="sm" fw={600}>{words.map((word, i) => <Fragment key={i}>{i > 0 && ' '}<span style={{ whiteSpace: 'nowrap' }}>{word}</span></Fragment>)}</Text>;
}

function ResultEntry({ plate, onDone }: { plate: Plate; onDone: () => void }) {
  const form = useForm<{ results: Record<string, CovidPcrResult | null> }>({ initialValues: { results: {} } });
  const { results } = form.getValues();
  useEffect(() => form.setValues({ results: {} }), [plate.id]); // eslint-disable-line react-hooks/exhaustive-deps
  const sending = useFormSubmit(
    form,
    (values) => enterPlateResults(plate.id, plate.wells.flatMap((w) => (values.results[w.well] ? [{ well: w.well, result: values.results[w.well]! }] : []))),
    { fieldOf: () => undefined, onSuccess: onDone },
  );

  const controls = useMemo(() => checkPcrControls(
    plate.wells.filter((w) => w.kind !== 'sample').map((w) => ({ well: w.well, label: w.label, control: w.kind as PcrControlKind, result: results[w.well] ?? null })),
  ), [plate, results]);
  const missing = plate.wells.filter((w) => w.kind !== 'null' && !results[w.well]).length;

  const ordered = [...plate.wells].sort((a, b) => Number(a.kind === 'sample') - Number(b.kind === 'sample'));
  return (
    <Stack gap="md">
      <Text fz="sm" c="dimmed">Controls first: the positive control must read DETECTED and the negative control NOT DETECTED for the plate's results to be released.</Text>
      <ScrollArea.Autosize mah={560}>
        <Table striped withTableBorder aria-label="Results of the run">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Well</Table.Th>
              <Table.Th>Holds</Table.Th>
              <Table.Th>Test</Table.Th>
              <Table.Th>Result</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {ordered.map((w) => {
              const expected = w.kind === 'sample' ? undefined : PCR_CONTROL_EXPECTED[w.kind];
              return (
                <Table.Tr key={w.well}>
                  <Table.Td fw={600}>{w.well}</Table.Td>
                  <Table.Td>
                    <Text fz="sm" ff={w.kind === 'sample' ? 'monospace' : undefined}>{w.label}</Text>
                    <Text fz="xs" c="dimmed">{KIND_LABEL[w.kind]}{w.patient ? ` · ${w.patient}` : ''}{expected ? ` · expected ${expected}` : ''}</Text>
                  </Table.Td>
                  <Table.Td><WellTest test={w.test} /></Table.Td>
                  <Table.Td>
                    <Select
                      aria-label={`Result of ${w.well}`}
                      placeholder={w.kind === 'null' ? 'Optional' : 'Choose'}
                      data={COVID_PCR_RESULTS}
                      value={results[w.well] ?? null}
                      onChange={(v) => form.setFieldValue('results', { ...form.getValues().results, [w.well]: v as CovidPcrResult | null })}
                      clearable
                      w={{ base: 150, sm: 200 }}
                      error={expected && results[w.well] && results[w.well] !== expected ? `Expected ${expected}` : undefined}
                    />
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
      {!controls.ok && missing === 0 && (
        <Notice color="orange" title="The controls failed">
          <List size="sm">{controls.problems.map((p) => <List.Item key={p}>{p}</List.Item>)}</List>
          The results will be saved for review, but cannot be released: reject them for a retest and run the samples again (barcode.reex).
        </Notice>
      )}
      <FormError error={sending.error === undefined ? undefined : commandError(sending.error)} />
      <Group>
        <Button onClick={sending.submit} loading={sending.submitting} disabled={missing > 0}>
          Save results{missing > 0 ? ` (${missing} to enter)` : ''}
        </Button>
      </Group>
    </Stack>
  );
}

function ResultedPlate({ plate }: { plate: Plate }) {
  return (
    <Stack gap="md">
      {plate.controls && (
        plate.controls.passed ? (
          <Notice color="green" title="Controls passed">Results entered by {plate.resultedBy?.name} on {formatDateTime(plate.resultedAt)}; they wait for another lab user's approval.</Notice>
        ) : (
          <Notice color="red" title="Controls failed: this plate cannot be released">
            <List size="sm">{plate.controls.problems.map((p) => <List.Item key={p}>{p}</List.Item>)}</List>
          </Notice>
        )
      )}
      <Anchor component={Link} to={`${LAB_PATHS.review}?plate=${plate.id}`}>Review this plate's results</Anchor>
      {/* Narrower than the plate (a tablet): it scrolls sideways, so the keyboard must reach it too. */}
      <ScrollArea viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Plate layout, scrolls sideways' }}>
        <PcrPlateGrid
          wells={Object.fromEntries(plate.wells.map((w) => [w.well, w.label]))}
          tests={Object.fromEntries(plate.wells.map((w) => [w.well, w.test]))}
          results={Object.fromEntries(plate.wells.map((w) => [w.well, w.result]))}
        />
      </ScrollArea>
      <PlateTestLegend />
      <ScrollArea viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Plate results, scrolls sideways' }}>
        <Table striped withTableBorder aria-label="Plate results">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Well</Table.Th>
              <Table.Th>Holds</Table.Th>
              <Table.Th>Test</Table.Th>
              <Table.Th>Result</Table.Th>
              <Table.Th>Review</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {plate.wells.map((w) => (
              <Table.Tr key={w.well}>
                <Table.Td>{w.well}</Table.Td>
                <Table.Td><Text fz="sm">{w.label}</Text><Text fz="xs" c="dimmed">{KIND_LABEL[w.kind]}{w.patient ? ` · ${w.patient}` : ''}</Text></Table.Td>
                <Table.Td><WellTest test={w.test} /></Table.Td>
                <Table.Td>{w.result ? <Text fz="sm">{w.result}<Text span c="dimmed" fz="xs">{w.kind === 'sample' ? ` · ${COVID_PCR_RESULT_TEXT[w.result as CovidPcrResult]}` : ''}</Text></Text> : '—'}</Table.Td>
                <Table.Td>{w.resultStatus ? <Badge color={w.resultStatus === 'Released' ? AA_COLORS.green : w.resultStatus === 'Rejected' ? AA_COLORS.red : AA_COLORS.gray}>{w.resultStatus}</Badge> : '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    </Stack>
  );
}

/** /lab_toolbox/pcr_resulting: choose a registered plate and enter the run's result of every well. */
export function PcrResultingPage() {
  const [params, setParams] = useSearchParams();
  const plateId = Number(params.get('plate')) || null;
  const refresh = useRefreshLab();
  const { data: waiting } = usePcrPlates({ page: 1, pageSize: 50, status: PcrPlateStatus.Registered });
  const { data: recent } = usePcrPlates({ page: 1, pageSize: 10, status: PcrPlateStatus.Resulted });
  const { data: plate, mutate } = usePcrPlate(plateId);

  const choose = (id: number) => setParams({ plate: String(id) });
  return (
    <LabPageFrame title="PCR resulting" subtitle="COVID-19 PCR and Rapid: enter the results of a registered plate.">
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 3 }}>
          <Paper withBorder p="sm">
            <Title order={2} fz="md" mb="xs">Waiting for results</Title>
            {waiting?.rows.length === 0 && <Text fz="sm" c="dimmed">No plate waits for results.</Text>}
            {waiting?.rows.map((p) => (
              <NavLink key={p.id} label={p.name} description={`${p.sampleCount} ${p.sampleCount === 1 ? 'sample' : 'samples'} · ${formatDateTime(p.createdAt)}`} active={p.id === plateId} onClick={() => choose(p.id)} />
            ))}
            <Title order={2} fz="md" mt="md" mb="xs">Recently resulted</Title>
            {recent?.rows.map((p) => (
              <NavLink key={p.id} label={p.name} description={formatDateTime(p.resultedAt)} active={p.id === plateId} onClick={() => choose(p.id)} />
            ))}
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          <Paper withBorder p="md">
            {!plateId && <Text c="dimmed">Choose a plate on the left, or <Anchor component={Link} to={LAB_PATHS.pcrRegister}>register a new one</Anchor>.</Text>}
            {plate && (
              <Stack gap="md">
                <Group justify="space-between">
                  <Title order={2} fz="xl">Plate {plate.name}</Title>
                  <Group gap="sm">
                    <Badge color={plate.status === PcrPlateStatus.Resulted ? AA_COLORS.green : AA_COLORS.gray}>{plate.status}</Badge>
                    <PrintLabelMenu pathFor={(output) => pcrPlateLabelPath(plate.id, output)} fileName={`labels-${plate.name}`} what={`plate ${plate.name}`} />
                  </Group>
                </Group>
                <Text fz="sm" c="dimmed">Registered by {plate.createdBy.name} on {formatDateTime(plate.createdAt)} · {plate.sampleCount} {plate.sampleCount === 1 ? 'sample' : 'samples'}</Text>
                {plate.status === PcrPlateStatus.Registered ? (
                  <ResultEntry plate={plate} onDone={() => { void mutate(); refresh(); }} />
                ) : (
                  <ResultedPlate plate={plate} />
                )}
              </Stack>
            )}
          </Paper>
        </Grid.Col>
      </Grid>
    </LabPageFrame>
  );
}
