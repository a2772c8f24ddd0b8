/**
 * A review row's details (issue 30, item 3): what the reviewer needs to decide without leaving the
 * list — the sample's QC (its DNA extraction's values and flags; its PCR plate's controls and
 * their outcome), the patient's earlier released results of the same test (a change from the last
 * is marked), the run (plate and well, import file, who entered it and when) and the specimen (type,
 * collected, received, tested, age at testing). It ends with the decision: Approve for this
 * result, or why it cannot be approved (the release rule's words, from the API: never decided here).
 */
import type { ReactNode } from 'react';
import { Box, Button, Group, List, SimpleGrid, Stack, Text } from '@mantine/core';
import { describeSpecimenAge, DNA_QC_HOLDS_RELEASE, DNA_QC_LABELS, PCR_CONTROL_LABELS, type PcrControlKind, SPECIMEN_CONDITION_LABELS, SpecimenCondition } from '@platform/domain';
import type { ReviewListRow } from '../../api/lab';
import { AA_COLORS } from '../../status-colors';
import { formatDateTime } from '../../format';

/** The id of a row's details, for its toggle's aria-controls. */
export const reviewDetailId = (resultId: number) => `review-detail-${resultId}`;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={4} component="section" aria-label={title}>
      <Text fw={700} fz="sm">{title}</Text>
      {children}
    </Stack>
  );
}

/** One label: value line. */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Text fz="sm"><Text span c="dimmed" fz="sm">{label}: </Text>{children}</Text>
  );
}

function Qc({ row }: { row: ReviewListRow }) {
  const { extraction, controls } = row.context;
  const held = extraction ? DNA_QC_HOLDS_RELEASE.includes(extraction.qc) : false;
  return (
    <Section title="QC">
      {extraction ? (
        <Box data-testid="review-extraction">
          <Text fz="sm" fw={held ? 700 : 400} c={held ? AA_COLORS.red : undefined}>
            {extraction.own ? 'This DNA extraction' : 'DNA extraction'} {extraction.label}: {DNA_QC_LABELS[extraction.qc]}
          </Text>
          <Text fz="sm">
            Concentration {extraction.concentration} ng/µL · A260/280 {extraction.a260280} · volume {extraction.volume} µL
          </Text>
          <Text fz="xs" c="dimmed">Extraction plate {extraction.plate}, well {extraction.well}</Text>
          {extraction.flags.length > 0 && (
            <List size="sm" c={AA_COLORS.red} aria-label="Outside the acceptance range">
              {extraction.flags.map((f) => <List.Item key={f}>{f}</List.Item>)}
            </List>
          )}
        </Box>
      ) : (
        <Text fz="sm" c="dimmed">No DNA extraction imported for this sample.</Text>
      )}
      {row.plate && (
        <Box data-testid="review-controls">
          <Text fz="sm" fw={row.plate.controlsPassed ? 400 : 700} c={row.plate.controlsPassed ? AA_COLORS.green : AA_COLORS.red}>
            Plate {row.plate.name} controls {row.plate.controlsPassed ? 'passed' : 'failed'}
          </Text>
          <List size="sm" aria-label={`Controls of plate ${row.plate.name}`}>
            {controls.map((c) => (
              <List.Item key={c.well}>
                {c.well} {c.label} ({PCR_CONTROL_LABELS[c.kind as PcrControlKind] ?? c.kind}): {c.result ?? 'no result'}
                {c.expected && <> (expected {c.expected}) — <Text span fz="sm" fw={c.passed ? 400 : 700} c={c.passed ? AA_COLORS.green : AA_COLORS.red}>{c.passed ? 'passed' : 'failed'}</Text></>}
              </List.Item>
            ))}
          </List>
        </Box>
      )}
    </Section>
  );
}

function Earlier({ row }: { row: ReviewListRow }) {
  const { earlier, changedFromLast } = row.context;
  return (
    <Section title={`Earlier ${row.test} results of this patient`}>
      {earlier.length === 0 && <Text fz="sm" c="dimmed">None released before.</Text>}
      {changedFromLast === true && (
        <Text fz="sm" fw={700} c={AA_COLORS.orange} data-testid="review-changed">Changed: last released {earlier[0].value}, now {row.value}</Text>
      )}
      {changedFromLast === false && <Text fz="sm" c="dimmed">Same as the last released result.</Text>}
      {earlier.length > 0 && (
        <List size="sm" aria-label="Earlier released results">
          {earlier.map((e, i) => (
            <List.Item key={e.resultId}>
              <Text span fz="sm" fw={i === 0 && changedFromLast ? 700 : 400} bg={i === 0 && changedFromLast ? 'orange.0' : undefined} data-testid={i === 0 ? 'review-earlier-last' : undefined}>
                {e.value}
              </Text>
              <Text span fz="xs" c="dimmed"> · {e.sameSample ? 'this sample (the version this corrects)' : <>sample <Text span ff="monospace" fz="xs">{e.barcode}</Text></>}, released {e.releasedAt ? formatDateTime(e.releasedAt) : '—'}</Text>
            </List.Item>
          ))}
        </List>
      )}
    </Section>
  );
}

function Run({ row }: { row: ReviewListRow }) {
  return (
    <Section title="Run">
      {row.plate && <Fact label="PCR plate">{row.plate.name}, well {row.plate.well}</Fact>}
      {row.importFile && <Fact label="Import file">{row.importFile.name}</Fact>}
      {row.context.extraction && !row.plate && <Fact label="Extraction">plate {row.context.extraction.plate}, well {row.context.extraction.well}</Fact>}
      {!row.plate && !row.importFile && <Fact label="Source">{row.correctionReason ? 'Correction' : 'Entered by hand'}</Fact>}
      <Fact label="Entered by">{row.enteredBy.name}, {formatDateTime(row.enteredAt)}</Fact>
    </Section>
  );
}

function Specimen({ row }: { row: ReviewListRow }) {
  const s = row.context.specimen;
  return (
    <Section title="Specimen">
      <Fact label="Type">{s.sampleType ?? 'not recorded'}</Fact>
      <Fact label="Condition">
        {s.condition === null
          ? 'not recorded'
          : <Text span fz="sm" fw={s.condition === SpecimenCondition.Acceptable ? 400 : 700} c={s.condition === SpecimenCondition.Acceptable ? undefined : AA_COLORS.orange}>{SPECIMEN_CONDITION_LABELS[s.condition]}</Text>}
        {s.conditionNote ? ` (${s.conditionNote})` : ''}
      </Fact>
      <Fact label="Collected">{s.collectedAt ? formatDateTime(s.collectedAt) : 'not recorded'}</Fact>
      <Fact label="Received">{s.receivedAt ? formatDateTime(s.receivedAt) : 'not recorded'}</Fact>
      <Fact label="Tested">{formatDateTime(s.testedAt)}</Fact>
      <Fact label="Age at testing">{s.ageAtTestingHours === null ? 'unknown (no collection time)' : describeSpecimenAge(s.ageAtTestingHours)}</Fact>
    </Section>
  );
}

/**
 * The details of one review row. Sticky at the left of the list's scroll area and no wider than the
 * screen, so on a phone it reads in place while the table itself scrolls sideways.
 */
export function ReviewRowDetail({ row, onApprove }: { row: ReviewListRow; onApprove: (row: ReviewListRow, button: HTMLElement) => void }) {
  return (
    <Box id={reviewDetailId(row.id)} data-testid="review-detail" style={{ position: 'sticky', left: 0, maxWidth: 'min(100%, calc(100vw - 6rem))', overflowWrap: 'anywhere' }} py="xs">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
        <Qc row={row} />
        <Earlier row={row} />
        <Run row={row} />
        <Specimen row={row} />
      </SimpleGrid>
      <Group mt="sm" gap="sm">
        {row.canApprove ? (
          <Button size="compact-sm" color={AA_COLORS.green} onClick={(e) => onApprove(row, e.currentTarget)}>Approve {row.barcode} {row.test}</Button>
        ) : (
          <Text fz="sm" fw={700} c={AA_COLORS.red} data-testid="review-cannot-approve">Cannot be approved: {row.cannotApprove}</Text>
        )}
      </Group>
    </Box>
  );
}
